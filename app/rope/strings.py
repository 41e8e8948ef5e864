"""Strings of the RoPE page (RoFormer 2104.09864; position interpolation 2306.15595; YaRN 2309.00071)."""

STRINGS = {
    "rope.intro": (
        "RoPE (RoFormer, arXiv 2104.09864) puts no position vector into the token stream. Instead, in every "
        "attention layer, it splits each query and key into pairs of numbers and turns pair i of the token at "
        "position m by the angle m·θᵢ, with θᵢ = base^(−2i/d). Only q and k are rotated, never v: position shapes "
        "*who attends to whom*, while the values passed along carry no rotation. Fast pairs spin many times within "
        "a sentence, slow ones barely move. Below: the maths on its own, then a small LLaMA-style model we trained "
        "with it.",
        "旋转位置编码（RoPE，RoFormer，arXiv 2104.09864）不往词元流里加任何位置向量，而是在每个注意力层中，把每个查询和"
        "键拆成若干个二维数对，把位置 m 上词元的数对 i 旋转 m·θᵢ 角度，其中 θᵢ = base^(−2i/d)。只旋转 q 和 k，从不旋转 "
        "v：位置决定*谁关注谁*，而被传递的值不带旋转。快的数对在一句话之内就转很多圈，慢的几乎不动。下面先单独看数学，"
        "再看我们用它训练的一个小型 LLaMA 式模型。",
    ),
    # guided experiment
    "rope.ours.note": (
        "The try-this and the comparison with the paper below are about our own model (llama, trained here on "
        "Shakespeare); {name}, picked above, is measured in section 3.",
        "下面的“试一试”和与论文的对比讲的是我们自己的模型（llama，在本站用莎士比亚训练）；上面选的 {name} "
        "在第 3 节中测量。",
    ),
    "rope.try.do": (
        "Scroll to section 5 and compare the four *loss past the context* numbers. Then move *Where in the play*, "
        "or pick another play.",
        "滚动到第 5 节，比较四个“上下文之外的损失”数值。然后移动“从剧本的哪里开始”，或者换一部剧本。",
    ),
    "rope.try.see": (
        "NTK scaling has the lowest loss past position {T}, and position interpolation the highest, worse than "
        "plain RoPE with no scaling at all. Inside the first {T} tokens PI and YaRN are worse than plain RoPE. "
        "We checked all 63 windows the page offers (3 plays × 21 starts): the order holds on every one.",
        "NTK 缩放在位置 {T} 之后的损失最低，位置插值最高，甚至比不做任何缩放的普通 RoPE 还差。在前 {T} 个词元之内，"
        "位置插值和 YaRN 都比普通 RoPE 差。我们检查了本页提供的全部 63 个窗口（3 部剧 × 21 个起点），"
        "每一个都是这个顺序。",
    ),
    "rope.try.why": (
        "The model only ever saw the angles of positions below {T}. Position interpolation divides every position by "
        "{x}, so even neighbouring tokens sit at angles it never learned; its paper fine-tunes after interpolating, "
        "and here nothing is fine-tuned. NTK-aware scaling multiplies the base instead: the fast pairs, which carry "
        "the order of nearby words, keep almost their angles, and only the slow ones stretch. It was proposed to "
        "work without fine-tuning.",
        "模型只见过位置 {T} 以内的角度。位置插值把每个位置都除以 {x}，连相邻词元的角度都是它从未学过的；"
        "它的论文在插值后会再微调，而这里什么都没有微调。NTK 感知缩放则改为把底数乘以一个系数："
        "携带相邻词序的快数对角度几乎不变，只有慢数对被拉伸。它的提出就是为了不需要微调。",
    ),
    # in the paper vs here
    "rope.pvh.where": ("Where position enters", "位置从哪里进入"),
    "rope.pvh.where.paper": (
        "every attention layer rotates the pairs of q and k by m·θᵢ, θᵢ = 10000^(−2i/d); v is not rotated",
        "每个注意力层把 q 和 k 的数对旋转 m·θᵢ，θᵢ = 10000^(−2i/d)；v 不旋转",
    ),
    "rope.pvh.where.here": (
        "the same, in each of {layers} layers; head width {D}, base {base:,.0f}",
        "相同，{layers} 层中的每一层；头维度 {D}，底数 {base:,.0f}",
    ),
    "rope.pvh.model": ("Model", "模型"),
    "rope.pvh.model.paper": (
        "RoFormer: Transformers with RoPE, tested on translation, pre-training and long-text classification",
        "RoFormer：使用 RoPE 的 Transformer，在机器翻译、预训练和长文本分类上测试",
    ),
    "rope.pvh.model.here": (
        "LLaMA-style decoder: {layers} layers, width {dim}, {heads} query heads sharing {kv} key/value heads; "
        "{params:,} parameters, {T}-token context, Shakespeare",
        "LLaMA 式解码器：{layers} 层，宽度 {dim}，{heads} 个查询头共享 {kv} 个键/值头；{params:,} 个参数，上下文 {T} "
        "个词元，莎士比亚语料",
    ),
    "rope.pvh.result": ("Headline result", "主要结果"),
    "rope.pvh.result.paper": (
        "beats its alternatives on long-text classification",
        "在长文本分类上胜过其他位置编码方案",
    ),
    "rope.pvh.result.here": (
        "{bpc:.2f} bits per character on held-out plays, against {base_bpc:.2f} for a GPT-2-style model with "
        "learned positions trained for the same time",
        "在留出剧本上每字符 {bpc:.2f} 比特；训练时间相同、使用可学习位置的 GPT-2 式模型为 {base_bpc:.2f}",
    ),
    "rope.pvh.longer": ("Longer inputs", "更长的输入"),
    "rope.pvh.longer.paper": (
        "RoFormer lists flexibility of sequence length among RoPE's properties; ways to stretch a trained model "
        "came later: position interpolation (arXiv 2306.15595) with fine-tuning, NTK-aware scaling (an online "
        "proposal, 2023) without, YaRN (arXiv 2309.00071)",
        "RoFormer 把序列长度上的灵活性列为 RoPE 的性质之一；拉长已训练模型的方法是后来才有的：位置插值"
        "（arXiv 2306.15595，需微调）、NTK 感知缩放（2023 年网上提出，无需微调）、YaRN（arXiv 2309.00071）",
    ),
    "rope.pvh.longer.here": (
        "all four schemes read up to {x}× the {T}-token context, none fine-tuned",
        "四种方案都读到 {T} 词元上下文的 {x} 倍，都没有微调",
    ),
    "rope.pvh.dep.llama": (
        "A LLaMA-style causal decoder (RMSNorm, SwiGLU, grouped-query attention), not RoFormer's encoders.",
        "这是 LLaMA 式的因果解码器（RMSNorm、SwiGLU、分组查询注意力），而不是 RoFormer 的编码器。",
    ),
    "rope.pvh.dep.tied": (
        "Its output matrix is the token embedding (tied); LLaMA has a separate one.",
        "它的输出矩阵就是词元嵌入矩阵（共享权重）；LLaMA 的输出矩阵是独立的。",
    ),
    "rope.pvh.dep.baseline": (
        "The baseline differs in more than positions (LayerNorm, a GELU MLP, full multi-head attention), so the gap "
        "in bits per character is not RoPE's alone.",
        "基线模型不只在位置编码上不同（还有 LayerNorm、GELU MLP、完整的多头注意力），所以每字符比特数的差距并不全来自 "
        "RoPE。",
    ),
    "rope.d": ("Head width d", "头维度 d"),
    "rope.d.help": (
        "Numbers per query/key head; d/2 pairs. The trained model uses 48.",
        "每个查询/键头的维数，共 d/2 对。训练好的模型用的是 48。",
    ),
    "rope.base": ("Base", "底数 base"),
    "rope.base.help": (
        "θᵢ = base^(−2i/d). RoFormer and LLaMA use 10,000; a larger base makes the slow pairs slower.",
        "θᵢ = base^(−2i/d)。RoFormer 和 LLaMA 用 10,000；底数越大，慢的数对转得越慢。",
    ),
    "rope.error.choice": ("That value is not one of the options on this page.", "这个取值不在本页的可选范围内。"),
    "rope.error.short": (
        "The text has {n} tokens; extrapolation needs at least {need} to reach past the training context.",
        "这段文本只有 {n} 个词元；要测到训练上下文之外，至少需要 {need} 个。",
    ),
    "rope.error.long": ("Please keep the text under {n} characters.", "请把文本控制在 {n} 个字符以内。"),
    "rope.no_model": (
        "The llama checkpoint is not on this server yet: run python -m models.train llama.",
        "服务器上还没有 llama 检查点：请运行 python -m models.train llama。",
    ),
    # rotation and spectrum
    "rope.rot.title": ("1 · Rotation: one pair per frequency", "1 · 旋转：每个频率一个数对"),
    "rope.rot.caption": (
        "The same query (1, 0) in every pair, placed at positions 0 … m. Each dot is one position; the arrow is "
        "position m. The fast pair (i = 0) turns one radian per token, the slow pair (i = d/2 − 1) almost nothing. "
        "Drag the slider under the circles to move m: above each circle, the pair's angle m·θᵢ (modulo 360°) and "
        "its turns m·θᵢ / 2π.",
        "每一对都取同一个查询 (1, 0)，放在位置 0 … m。每个点是一个位置，箭头是位置 m。快的数对（i = 0）每个词元"
        "转 1 弧度，慢的数对（i = d/2 − 1）几乎不转。拖动圆下方的滑块来移动 m：每个圆的上方是该数对的角度 m·θᵢ"
        "（对 360° 取模）和圈数 m·θᵢ / 2π。",
    ),
    "rope.rot.pair": ("pair {i}<br>θ = {theta} rad/token", "数对 {i}<br>θ = {theta} 弧度/词元"),
    "rope.rot.at": ("m·θ = {angle}° · {turns} turns", "m·θ = {angle}° · {turns} 圈"),
    "rope.spec.title": ("Frequency spectrum θᵢ = base^(−2i/d)", "频谱 θᵢ = base^(−2i/d)"),
    "rope.spec.caption": (
        "Wavelength 2π/θᵢ of each pair (log scale). Pairs above the dashed line never finish one turn inside the "
        "training context, so they carry coarse position; pairs below it repeat and carry fine position.",
        "每个数对的波长 2π/θᵢ（对数坐标）。虚线以上的数对在训练上下文内转不满一圈，携带粗粒度的位置；"
        "虚线以下的数对会重复，携带细粒度的位置。",
    ),
    "rope.pair": ("pair i", "数对 i"),
    "rope.wavelength": ("wavelength (tokens)", "波长（词元）"),
    "rope.context": ("training context {T}", "训练上下文 {T}"),
    # relative property
    "rope.rel.title": ("2 · The relative property, live", "2 · 相对性质（实时计算）"),
    "rope.rel.caption": (
        "Why only the offset survives: turning q by mθ and k by nθ and taking their dot product is the same as turning "
        "k by (n − m)θ alone — rotations compose, and a dot product is unchanged when both vectors turn together. So "
        "qₘ·kₙ depends on m − n only, and the score matrix is constant along every diagonal (a Toeplitz matrix). "
        "Pick the map: one random q and k placed at every position with RoPE, or the same q and k with the "
        "sinusoidal table added instead (1706.03762): absolute positions leak in, diagonals vary.",
        "为什么只剩下偏移量：把 q 转 mθ、把 k 转 nθ 再做点积，等于只把 k 转 (n − m)θ——旋转可以合并，而两个向量"
        "一起旋转时点积不变。所以 qₘ·kₙ 只依赖 m − n，分数矩阵沿每条对角线都是常数（Toeplitz 矩阵）。"
        "选择矩阵：一个随机的 q 和 k 放在每个位置上并施加 RoPE；或同样的 q 和 k，改为加上正弦位置表"
        "（1706.03762）：绝对位置混了进来，对角线上的值不再相同。",
    ),
    "rope.seed": ("Random q, k (seed)", "随机 q、k（种子）"),
    "rope.m.toeplitz": ("RoPE: largest deviation from Toeplitz", "RoPE：与 Toeplitz 的最大偏差"),
    "rope.m.toeplitz.help": (
        "max over entries of |score − mean of its diagonal|; only float32 rounding is left.",
        "所有元素中 |分数 − 所在对角线均值| 的最大值；剩下的只是 float32 舍入误差。",
    ),
    "rope.m.toeplitz_abs": ("Sinusoidal added: largest deviation", "加正弦位置：最大偏差"),
    "rope.m.toeplitz_abs.help": ("The same measure for (q + pₘ)·(k + pₙ).", "对 (q + pₘ)·(k + pₙ) 的同一度量。"),
    "rope.rel.view": ("Score map shown", "显示的分数矩阵"),
    "rope.rel.rope": ("RoPE: qₘ · kₙ", "RoPE：qₘ · kₙ"),
    "rope.rel.abs": ("sinusoidal added: (q + pₘ) · (k + pₙ)", "加正弦位置：(q + pₘ) · (k + pₙ)"),
    "rope.rel.m": ("query position m", "查询位置 m"),
    "rope.rel.n": ("key position n", "键位置 n"),
    "rope.score": ("score", "分数"),
    # decay
    "rope.decay.title": ("3 · Long-term decay", "3 · 远程衰减"),
    "rope.decay.caption": (
        "RoFormer §3.4.3 writes the score as a sum over pairs and bounds it by $\\frac{1}{d/2}\\sum_j |S_j|$ with "
        "$S_j = \\sum_{k<j} e^{i(m-n)\\theta_k}$ (times the largest step between neighbouring pairs of q·k). "
        "Far apart, the unit "
        "vectors $e^{i(m-n)\\theta_k}$ point every way and cancel, so the bound shrinks with distance: a "
        "distant key *can* "
        "still win, but only if its content matches strongly. That is a useful prior for language, where nearby words "
        "matter most. Right: what our trained model actually does — the mean pre-softmax score q·k/√d by distance, "
        "from its own rotated q and k on held-out text.",
        "RoFormer 第 3.4.3 节把分数写成各数对之和，并用 $\\frac{1}{d/2}\\sum_j |S_j|$ 给出上界，其中 "
        "$S_j = \\sum_{k<j} e^{i(m-n)\\theta_k}$（再乘上 q·k 相邻数对之间的最大差）。距离远时，各个单位向量 "
        "$e^{i(m-n)\\theta_k}$ "
        "指向四面八方、相互抵消，所以上界随距离减小：远处的键*仍然可能*胜出，但前提是内容匹配得足够强。"
        "这对语言是个有用的先验，因为附近的词通常最重要。右图是训练好的模型的真实表现：在留出文本上，"
        "用它自己旋转后的 q 和 k 计算的、按距离平均的 softmax 前分数 q·k/√d。",
    ),
    "rope.m.half": ("Bound halves at distance", "上界减半的距离"),
    "rope.m.half.help": (
        "The first distance where the bound falls below half its value at distance 0.",
        "上界第一次低于距离 0 处一半的距离。",
    ),
    "rope.m.far": ("Bound at distance {r} ÷ at 0", "距离 {r} 处上界 ÷ 距离 0 处"),
    "rope.m.far.help": (
        "How much room is left for far-apart tokens, relative to neighbours.",
        "远距离词元相对于相邻词元还剩多少“空间”。",
    ),
    "rope.decay.bound": ("RoFormer bound, d = {d}, base = {base}", "RoFormer 上界，d = {d}，base = {base}"),
    "rope.decay.bound.name": ("(1/(d/2))·Σ|Sⱼ|", "(1/(d/2))·Σ|Sⱼ|"),
    "rope.decay.bound.y": ("relative upper bound", "相对上界"),
    "rope.distance": ("distance m − n (tokens)", "距离 m − n（词元）"),
    "rope.decay.measured": (
        "Trained model (d = 48, base = 10,000): mean q·k/√d by distance, one line per head, {T}-token windows.",
        "训练好的模型（d = 48，base = 10,000）：按距离平均的 q·k/√d，每个头一条线，窗口长 {T} 个词元。",
    ),
    "rope.decay.measured.y": ("mean score q·k/√d", "平均分数 q·k/√d"),
    "rope.head": ("head {h}", "头 {h}"),
    # schemes
    "rope.schemes.title": ("4 · Five ways to tell attention about position", "4 · 告诉注意力位置的五种方式"),
    "rope.schemes.caption": (
        "What each scheme contributes to the score of a key Δ tokens before the query. Scales differ, so every curve "
        "is divided by its largest magnitude; compare shapes, not heights.",
        "每种方案对“查询之前 Δ 个词元处的键”的分数贡献了什么。各方案量纲不同，所以每条曲线都除以了自己的最大绝对值；"
        "请比较形状而不是高度。",
    ),
    "rope.schemes.y": ("effect on the score (scaled)", "对分数的影响（已缩放）"),
    "rope.offset": ("offset Δ (key before query, tokens)", "偏移 Δ（键在查询之前，词元）"),
    "rope.scheme.sinusoidal": ("sinusoidal absolute", "正弦绝对位置"),
    "rope.scheme.sinusoidal.note": (
        "added to the input (1706.03762). Shown: the position–position term p(m)·p(m−Δ) at d = 192; the cross terms "
        "with content depend on m itself, which is why the right matrix in section 2 is not Toeplitz.",
        "加在输入上（1706.03762）。图中是位置与位置之间的项 p(m)·p(m−Δ)（d = 192）；与内容的交叉项依赖 m 本身，"
        "这就是第 2 节右侧矩阵不是 Toeplitz 的原因。",
    ),
    "rope.scheme.learned": ("learned absolute (our GPT)", "可学习绝对位置（我们的 GPT）"),
    "rope.scheme.learned.note": (
        "one trained vector per position (GPT-2, BERT). Shown: cosine of p(m) and p(m−Δ) in our GPT checkpoint, "
        "averaged over m. Nothing exists past the last trained position.",
        "每个位置一个训练出来的向量（GPT-2、BERT）。图中是我们 GPT 检查点里 p(m) 与 p(m−Δ) 的余弦，对 m 取平均。"
        "超过最后一个训练位置就没有向量可用。",
    ),
    "rope.scheme.t5": ("T5 relative buckets", "T5 相对位置桶"),
    "rope.scheme.t5.note": (
        "a learned scalar per head and bucket added to the score (1910.10683): exact buckets for small Δ, log-spaced "
        "ones up to 128, then one shared bucket. Shown: the bucket index (each step is one learned value).",
        "按头和桶学习一个标量，加到分数上（1910.10683）：小 Δ 各有一个桶，更远的按对数间隔分桶，直到 128，"
        "之后共用一个桶。图中画的是桶编号（每一级台阶对应一个学习出来的值）。",
    ),
    "rope.scheme.alibi": ("ALiBi", "ALiBi"),
    "rope.scheme.alibi.note": (
        "a fixed penalty −slope·Δ added to the score, one slope per head (2108.12409); nothing is learned and it "
        "keeps falling past the training length, which is why ALiBi extrapolates.",
        "在分数上加一个固定惩罚 −slope·Δ，每个头一个斜率（2108.12409）；不需要学习，并且在训练长度之外继续下降，"
        "这正是 ALiBi 能外推的原因。",
    ),
    "rope.scheme.rope": ("RoPE (this page's d, base)", "RoPE（本页的 d、base）"),
    "rope.scheme.rope.note": (
        "adds nothing: it multiplies pair i's part of q·k by cos(Δθᵢ) (and mixes in a sin term). Shown: a key equal "
        "to the query, equal weight in every pair — the mean of cos(Δθᵢ). Content and offset enter together.",
        "不加任何东西：它把 q·k 中数对 i 的部分乘以 cos(Δθᵢ)（并混入一个 sin 项）。图中是键与查询相同、"
        "各数对权重相同时的情形，即 cos(Δθᵢ) 的平均。内容和偏移一起起作用。",
    ),
    # extrapolation
    "rope.ext.title": ("5 · Beyond the training context", "5 · 超出训练上下文"),
    "rope.ext.caption": (
        "Our model saw only {T}-token windows. Here it reads up to {x}× that, and we score the next-token loss at "
        "every position. Plain RoPE meets angles it never saw on the slow pairs. Position interpolation (PI, arXiv "
        "2306.15595) reads position m as m/s, squeezing the long input into the trained range of angles (and "
        "crowding neighbouring tokens); its paper then fine-tunes briefly. NTK-aware scaling multiplies the base "
        "by s^(d/(d−2)), so the fast pairs keep almost their angles and the slow ones stretch; it was proposed to "
        "work without fine-tuning. YaRN (arXiv 2309.00071) interpolates only the slow pairs (those that turn less "
        "than once over the training context), leaves the fast ones (over 32 turns) alone, blends the pairs "
        "between, and multiplies the attention logits by (0.1·ln s + 1)². Nothing is fine-tuned here, and s = {x} "
        "is applied at every position, also within the first {T}.",
        "我们的模型只见过 {T} 个词元的窗口。这里让它读到 {x} 倍长，并在每个位置上计算下一个词元的损失。普通 RoPE 会在"
        "慢数对上遇到训练时从未见过的角度。位置插值（PI，arXiv 2306.15595）把位置 m 当作 m/s，把长输入压回训练过的"
        "角度范围（相邻词元因此挤得更近）；其论文随后会做少量微调。NTK 感知缩放把底数乘以 s^(d/(d−2))，快数对的角度"
        "几乎不变，慢数对被拉伸；它的提出就是为了不需要微调。YaRN（arXiv 2309.00071）只对慢数对（在训练上下文内转不满"
        "一圈的）做插值，快数对（超过 32 圈的）保持不变，介于两者之间的按比例混合，并把注意力 logits 乘以 "
        "(0.1·ln s + 1)²。这里都没有微调，而且 s = {x} 作用在每个位置上，包括前 {T} 个。",
    ),
    "rope.ext.source": ("Text", "文本"),
    "rope.ext.source.julius_caesar": ("Julius Caesar (held out)", "《尤利乌斯·凯撒》（留出）"),
    "rope.ext.source.macbeth": ("Macbeth (held out)", "《麦克白》（留出）"),
    "rope.ext.source.twelfth_night": ("Twelfth Night (held out)", "《第十二夜》（留出）"),
    "rope.ext.source.custom": ("Your own text", "你自己的文本"),
    "rope.ext.start": ("Where in the play", "从剧本的哪里开始"),
    "rope.ext.text": (
        "Your text (English works best; it is scored up to {n} tokens)",
        "你的文本（英文效果最好；最多计算 {n} 个词元）",
    ),
    "rope.ext.none": ("Switch on at least one of the schemes.", "请至少打开一种方案。"),
    "rope.ext.text.placeholder": (
        "Paste a long English passage: at least about 500 characters, so that it reaches past the {T}-token "
        "training context.",
        "粘贴一段较长的英文文字：至少约 500 个字符，这样才能超出 {T} 个词元的训练上下文。",
    ),
    "rope.ext.text.empty": (
        "Paste a text above to see its loss at every position. The model read only English Shakespeare.",
        "请在上方粘贴文本，查看每个位置上的损失。模型只读过英文的莎士比亚作品。",
    ),
    "rope.ext.measured": (
        "**Measured on the model card** ({windows} held-out windows of {x}×{T} tokens, loss in nats): past position "
        "{T}, from best to worst: {ranking}. Inside the first {T} tokens plain RoPE is best ({plain_within:.2f}); "
        "PI ({pi_within:.2f}) and YaRN ({yarn_within:.2f}) pay for rescaling every position. YaRN thus sits "
        "between: past the context it beats plain RoPE and PI on this average but not NTK. Its paper fine-tunes "
        "briefly after scaling; untuned, on this small model, NTK-aware scaling does best.",
        "**模型卡上的测量**（{windows} 个长 {x}×{T} 词元的留出窗口，损失单位为奈特）：位置 {T} 之后，从好到差依次为："
        "{ranking}。在前 {T} 个词元之内，普通 RoPE 最好（{plain_within:.2f}）；位置插值（{pi_within:.2f}）和 YaRN"
        "（{yarn_within:.2f}）为缩放每个位置付出了代价。所以 YaRN 介于两者之间：上下文之外，"
        "按这个平均值它胜过普通 RoPE 和位置插值，但不如 NTK。YaRN 论文在缩放后会做少量微调；"
        "不微调时，在这个小模型上 NTK 感知缩放效果最好。",
    ),
    "rope.ext.ranking.sep": (", ", "，"),
    "rope.ext.plain": ("plain RoPE", "普通 RoPE"),
    "rope.ext.pi": ("position interpolation", "位置插值"),
    "rope.ext.ntk": ("NTK scaling", "NTK 缩放"),
    "rope.ext.yarn": ("YaRN", "YaRN"),
    "rope.ext.m.plain": ("Plain: loss past the context", "普通：上下文之外的损失"),
    "rope.ext.m.pi": ("PI: loss past the context", "位置插值：上下文之外的损失"),
    "rope.ext.m.ntk": ("NTK: loss past the context", "NTK：上下文之外的损失"),
    "rope.ext.m.yarn": ("YaRN: loss past the context", "YaRN：上下文之外的损失"),
    "rope.ext.m.help": (
        "Mean loss (nats per token) at positions ≥ {T}; the delta is against positions < {T} of the same run.",
        "位置 ≥ {T} 处的平均损失（每词元奈特）；变化量是相对于同一次运行中位置 < {T} 的平均损失。",
    ),
    "rope.ext.plot": ("{n} tokens, running mean over {w} positions.", "{n} 个词元，按 {w} 个位置做滑动平均。"),
    "rope.ext.loss": ("loss (nats per token)", "损失（每词元奈特）"),
    "rope.position": ("position", "位置"),
    # card
    "rope.card.title": ("The trained model and its card", "训练好的模型及其说明卡"),
    "rope.card.params": ("Parameters", "参数量"),
    "rope.card.val_bpc": ("Validation bits per character", "验证集每字符比特数"),
    "rope.card.baseline": ("GPT-2-style baseline", "GPT-2 式基线"),
    "rope.card.baseline.help": (
        "models.gpt.GPT with {params:.2f} M parameters, learned positions, trained in the same process on the same "
        "batches for the same step time.",
        "models.gpt.GPT，{params:.2f} M 参数，可学习位置编码；在同一进程中、用相同批次、相同的步骤时间训练。",
    ),
    "rope.card.steps": ("Steps (llama / baseline)", "步数（llama / 基线）"),
    "rope.card.steps.help": (
        "Each model stopped when its own step time reached the budget.",
        "每个模型在自己的步骤时间用完预算时停止。",
    ),
    "rope.card.ext": (
        "Extrapolation on the card: mean loss per 32-position bucket over {n} held-out windows of {length} tokens.",
        "说明卡上的外推结果：{n} 个长 {length} 词元的留出窗口上，每 32 个位置一组的平均损失。",
    ),
    "rope.card.caption": (
        "Data: {data}. Wall time {minutes:.0f} min (both models). Command: `{command}`.",
        "数据：{data}。总耗时 {minutes:.0f} 分钟（两个模型合计）。命令：`{command}`。",
    ),
    "rope.explain": (
        "**What RoFormer changed.** Absolute schemes add a position vector to the token, so every score mixes "
        "content with *where* both tokens sit. RoPE rotates q and k instead (not v); a rotation keeps lengths, and "
        "the dot product of two rotated vectors only sees the difference of their angles, so attention scores "
        "depend on the offset m − n and on content, and on nothing else (section 2). The spread of frequencies "
        "gives a built-in long-term decay of the bound (section 3).  \n"
        "**Why most open models adopted it** (LLaMA, Mistral, Qwen, DeepSeek …): it adds no parameters, works with "
        "fused attention kernels and with a KV cache (a cached key was rotated once and stays valid), keeps "
        "relative positions without a bias matrix, and can be stretched to longer inputs by changing the base (NTK), "
        "the position scale (PI, arXiv 2306.15595) or the frequencies pair by pair (YaRN), with or without a short "
        "fine-tune (section 5).  \n"
        "**More to try:** base 100 vs 1,000,000 in the decay chart; the position slider past 6 (the fast pair "
        "wraps).  \n"
        "Paper: Su et al., *RoFormer: Enhanced Transformer with Rotary Position Embedding*, arXiv 2104.09864.",
        "**RoFormer 改变了什么。** 绝对位置方案把位置向量加到词元上，于是每个分数都混入了两个词元*所在的位置*。"
        "RoPE 则旋转 q 和 k（不旋转 v）；旋转不改变长度，而两个旋转后向量的点积只取决于它们角度之差，所以注意力分数"
        "只依赖偏移 m − n 和内容，别无其他（第 2 节）。频率的分布使上界自带远程衰减（第 3 节）。  \n"
        "**为什么大多数开源模型都采用了它**（LLaMA、Mistral、Qwen、DeepSeek……）：它不增加参数，能配合融合注意力内核和 "
        "KV 缓存（缓存的键只需旋转一次，之后一直有效），不需要偏置矩阵就能表达相对位置，而且改变底数（NTK）、"
        "位置缩放（位置插值，arXiv 2306.15595）或逐个数对的频率（YaRN）就能扩展到更长的输入，"
        "可以微调也可以不微调（第 5 节）。  \n"
        "**还可以试试：** 在衰减图里比较 base 100 和 1,000,000；把位置滑块拉过 6（快数对转过一整圈）。  \n"
        "论文：Su 等，*RoFormer: Enhanced Transformer with Rotary Position Embedding*，arXiv 2104.09864。",
    ),
    # a real model (the picker)
    "rope.decay.measured.real": (
        "{name}: mean q·k/√d by distance, one line per head, over {n} windows of {T} tokens from the plays held "
        "out from our models (its context is far longer; {T} keeps a move quick on a CPU). They are not held out "
        "for {name}: it was pre-trained on trillions of tokens of web text, which may include them.",
        "{name}：按距离平均的 q·k/√d，每个头一条线，取自我们的模型留出的剧本，共 {n} 个长 {T} 个词元的窗口"
        "（它的上下文长得多；取 {T} 让每次操作在 CPU 上也很快）。这些剧本对 {name} 并非留出数据："
        "它在数万亿词元的网络文本上预训练过，其中可能就有它们。",
    ),
    "rope.beside.title": ("{name} beside ours: the score by distance", "{name} 与我们的模型：分数随距离的变化"),
    "rope.m.near_far": ("{name}: near → far", "{name}：近 → 远"),
    "rope.m.near_far.help": (
        "Mean q·k/√d over every layer and head, at distances 1 … {near}, then over the last half of the {R} "
        "distances measured.",
        "对所有层和头平均的 q·k/√d：先是距离 1 … {near}，再是所测 {R} 个距离的后一半。",
    ),
    "rope.beside.note": (
        "Both measured now from the rotated q and k probes, averaged over every layer and head, on the same "
        "Shakespeare (held out from ours, perhaps read by {name}); {R} distances, each averaged over at least {rest} "
        "query positions of every window.",
        "两条曲线都是现在从旋转后的 q、k 探针测得，对所有层和头取平均，使用同样的莎士比亚文本"
        "（对我们的模型是留出数据，{name} 可能读过）；"
        "共 {R} 个距离，每个距离至少在每个窗口的 {rest} 个查询位置上取平均。",
    ),
    "rope.beside.decays": (
        "In both, keys further away score lower on average: the decay RoFormer's bound describes, in a small model "
        "and in {name}.",
        "两者中，越远的键平均分数越低：这正是 RoFormer 上界所描述的衰减，小模型和 {name} 都是如此。",
    ),
    "rope.bases.col.what": ("what", "项目"),
    "rope.bases.title": (
        "{name}'s base {base} against ours, {ours}",
        "{name} 的 base {base} 与我们的 {ours}",
    ),
    "rope.bases.ours": ("ours (llama)", "我们的（llama）"),
    "rope.bases.swapped": ("{name} with base {base}", "{name}，base 改为 {base}"),
    "rope.bases.col.model": ("model", "模型"),
    "rope.bases.col.context": ("context T", "上下文 T"),
    "rope.bases.col.slowest": ("slowest wavelength (tokens)", "最慢数对的波长（词元）"),
    "rope.bases.col.turns": ("its turns in T", "它在 T 内转的圈数"),
    "rope.bases.col.unturned": ("pairs with no full turn in T", "在 T 内转不满一圈的数对"),
    "rope.bases.note": (
        "The slowest pair turns by θ = base^(−(D−2)/D) a token. With base {base}, {name}'s slowest pair needs "
        "{slowest} tokens for one turn; with our {ours} it would need {swapped} ({times:.1f}× fewer). Across its "
        "{T}-token context it turns {turns:.3f} of a circle instead of {turns_swapped:.3f}: a larger base keeps "
        "the slow pairs from wrapping around within a long context, so distant positions stay distinguishable.",
        "最慢数对每个词元转 θ = base^(−(D−2)/D)。base 为 {base} 时，{name} 的最慢数对转一圈需要 {slowest} "
        "个词元；用我们的 {ours} 只需 {swapped} 个（少 {times:.1f} 倍）。在它 {T} 词元的上下文里，"
        "它转 {turns:.3f} 圈而不是 {turns_swapped:.3f} 圈：更大的 base 让慢数对在长上下文内不会绕回，"
        "远处的位置仍可区分。",
    ),
    "rope.bases.use": ("Set d = {d} and base = {base}, as {name}", "设为 d = {d}、base = {base}，与 {name} 相同"),
    "rope.ext.ours_only": (
        "This section reads our model: {name}'s context is {T} tokens, and {x}× that is far beyond a CPU here.",
        "本节使用我们的模型：{name} 的上下文是 {T} 个词元，它的 {x} 倍远超这里的 CPU 所能承受。",
    ),
    # the intervention: the rotation removed from a layer's q and k
    "rope.error.layer": ("Pick a layer from 0 to {max}, or all.", "请选择 0 到 {max} 层之一，或全部。"),
    "rope.unrot.title": ("Intervention: take the rotation off a layer", "干预：去掉某一层的旋转"),
    "rope.unrot.ours_only": (
        "This section runs on our model, not on {name}.",
        "本节在我们的模型上运行，而不是 {name}。",
    ),
    "rope.unrot.which": ("Rotation removed from", "去掉旋转的层"),
    "rope.unrot.layer": ("layer {i}", "层 {i}"),
    "rope.unrot.all": ("every layer", "所有层"),
    "rope.unrot.m.before": ("Held-out loss, unchanged", "留出集损失（原样）"),
    "rope.unrot.m.after": ("… rotation off {where}", "……去掉{where}的旋转"),
    "rope.unrot.m.early": ("Change, first {n} positions", "变化：前 {n} 个位置"),
    "rope.unrot.m.early.help": (
        "Near the start a token has few tokens before it, so where they are matters less.",
        "靠近开头时，前面的词元很少，它们的位置就不那么重要。",
    ),
    "rope.unrot.m.late": ("Change, last {n} positions", "变化：最后 {n} 个位置"),
    "rope.unrot.series.before": ("unchanged", "原样"),
    "rope.unrot.series.after": ("rotation off {where}", "去掉{where}的旋转"),
    "rope.unrot.plot": (
        "Mean loss at each position over {n} held-out windows of {T} tokens (running mean over {w} positions).",
        "{n} 个 {T} 词元留出窗口上每个位置的平均损失（{w} 个位置的滑动平均）。",
    ),
    "rope.unrot.result": (
        "Unchanged, the model loses {before:.3f} nats per token on {n} held-out windows of {T} tokens. With the "
        "rotation taken off one layer at a time: {per_layer}; most from {worst}. Off every layer: {every:.3f}.",
        "原样时，模型在 {n} 个 {T} 词元的留出窗口上每词元损失 {before:.3f} 奈特。每次去掉一层的旋转：{per_layer}；"
        "影响最大的是{worst}。去掉所有层的旋转：{every:.3f}。",
    ),
    "rope.unrot.torch_only": (
        "Interventions run on the torch model: the {backend} backend selected in the sidebar is not used here.",
        "干预只在 torch 模型上运行：此处不使用侧栏所选的 {backend} 后端。",
    ),
    "rope.explain.unrot": (
        "**What is removed.** RoPE (2104.09864) is the model's only source of position: every q and k is rotated "
        "by m·θᵢ before the scores. Here the rotated q and k of the chosen layer are turned back by −m·θᵢ, so its "
        "scores are qᵀk of the plain vectors, the same at every distance; the causal mask still tells a token which "
        "tokens came before it, not how far back. The paper leads you to expect a higher loss, most where a layer "
        "uses nearby tokens, and least at the first positions, where there is little to order.",
        "**去掉了什么。** RoPE（2104.09864）是模型唯一的位置来源：每个 q 和 k 在计算得分前都按 m·θᵢ 旋转。"
        "这里把所选层旋转后的 q 和 k 再按 −m·θᵢ 转回去，于是它的得分就是未旋转向量的 qᵀk，与距离无关；"
        "因果掩码仍告诉词元哪些词元在它之前，但不告诉有多远。论文让我们预期损失会升高，在依赖邻近词元的层上最明显，"
        "而在最前面几个位置最小，因为那里几乎没有需要排序的内容。",
    ),
}
