"""Strings of the Attention page (Attention Is All You Need, arXiv 1706.03762)."""

STRINGS = {
    "attention.intro": (
        "Before 2017, sequence-to-sequence models read their input one step at a time with a recurrent network. "
        "The Transformer drops recurrence: every token looks at every other token through **attention**, in "
        "parallel — the encoder over the input, the decoder over what it has written so far (masked, so it cannot "
        "peek ahead) and over the encoder's output (**cross-attention**). Order comes only from the **sinusoidal "
        "positions** added to the embeddings. The model here is that encoder–decoder, small ({enc} encoder + {dec} "
        "decoder layers, {heads} heads, d_model = {d_model}, post-LayerNorm, ReLU feed-forward), trained by us to "
        "**reverse** a string of letters: a task whose answer tells us where attention *should* look.",
        "2017 年以前，序列到序列模型用循环神经网络逐步读取输入。Transformer 去掉了循环：每个词元都通过**注意力**并行地"
        "查看其他所有词元——编码器在输入上做自注意力，解码器在自己已写出的内容上做自注意力（带掩码，不能偷看后面），"
        "并通过**交叉注意力**查看编码器的输出。顺序信息只来自加在嵌入上的**正弦位置编码**。"
        "这里的模型就是这种编码器–解码器，只是很小（编码器 {enc} 层、解码器 "
        "{dec} 层，{heads} 个头，d_model = {d_model}，"
        "后置 LayerNorm，ReLU 前馈层），由我们训练来**反转**字符串：这个任务的答案告诉我们注意力*应该*看向哪里。",
    ),
    # guided experiment
    "attention.try.do": (
        "Keep the defaults — the input `abcdefgh`, *cross-attention*, {lh} — and move the *decoding step* from 0 to 7.",
        "保持默认设置——输入 `abcdefgh`、*交叉注意力*、{lh}——把*解码步*从 0 移到 7。",
    ),
    "attention.try.see": (
        "The *cross-attention peak* walks backwards through the input, one letter per step — step 0 looks at "
        "`7: h`, step 1 at `6: g`, …, step 7 at `0: a` — and *alignment agreement* reads 100%.",
        "*交叉注意力峰值*每一步向前退一个字母，沿输入倒着走——步 0 看 `7: h`，步 1 看 `6: g`，……，步 7 看 `0: a`——"
        "*对齐一致率*为 100%。",
    ),
    "attention.try.why": (
        "Output letter i is a copy of input letter n−1−i. In cross-attention the **query** comes from the decoder "
        "(which output it is writing) and the **keys and values** from the encoder (the input letters), so a head "
        "can find the letter to copy and pass its value on. Nobody told the model where to look: it learned this "
        "anti-diagonal from input–output pairs alone.",
        "输出字母 i 是输入字母 n−1−i 的副本（从 0 开始编号）"
        "。在交叉注意力中，**查询**来自解码器（它正在写第几个输出），"
        "**键和值**来自编码器（输入的字母），所以一个头可以找到要复制的字母并把它的值传过去。没有人告诉模型该看哪里："
        "它只从输入–输出对中学会了这条反对角线。",
    ),
    "attention.input": ("Input (letters a–z and spaces)", "输入（字母 a–z 和空格）"),
    "attention.input.help": (
        "Uppercase letters are read as lowercase. Trained on 1–16 characters; up to 20 are accepted.",
        "大写字母按小写处理。训练长度为 1–16 个字符，最多接受 20 个。",
    ),
    "attention.examples": ("Or pick an example", "或选择一个示例"),
    "attention.step": ("Decoding step", "解码步"),
    "attention.step.help": (
        "Step t (counted from 0): the decoder has read <bos> and its outputs 0 … t−1, and predicts output t.",
        "步 t（从 0 开始计）：解码器已读入 <bos> 和输出 0 … t−1，正在预测输出 t。",
    ),
    "attention.m.output": ("Model output", "模型输出"),
    "attention.m.correct": ("Correct reversal?", "反转正确？"),
    "attention.yes": ("yes", "是"),
    "attention.no": ("no", "否"),
    "attention.m.expected": ("Correct answer (the input reversed)", "正确答案（输入反转）"),
    "attention.m.predicts": ("Step {step} predicts", "步 {step} 的预测"),
    "attention.m.looks_at": ("Cross-attention peak ({lh})", "交叉注意力峰值（{lh}）"),
    "attention.m.weight": ("Peak weight", "峰值权重"),
    "attention.m.agreement": ("Alignment agreement ({lh})", "对齐一致率（{lh}）"),
    "attention.m.agreement.help": (
        "Share of output letters whose cross-attention peak is the source letter they copy (output i ← input n−1−i).",
        "交叉注意力峰值恰好落在被复制的源字母上的输出字母比例（输出 i ← 输入 n−1−i）。",
    ),
    "attention.progress": ("Decoder input so far → prediction", "目前的解码器输入 → 预测"),
    "attention.looking": (
        "Where the decoder looks at this step (cross-attention, {layer}, average of the heads)",
        "这一步解码器关注的位置（交叉注意力，{layer}，各头平均）",
    ),
    "attention.kind": ("Attention", "注意力类型"),
    "attention.kind.enc_self": ("encoder self-attention", "编码器自注意力"),
    "attention.kind.dec_self": ("decoder masked self-attention", "解码器掩码自注意力"),
    "attention.kind.cross": ("cross-attention", "交叉注意力"),
    "attention.kind.enc_self.caption": (
        "Encoder self-attention: queries, keys and values all come from the input letters; each letter may look at "
        "every other one, before and after it.",
        "编码器自注意力：查询、键和值都来自输入字母；每个字母都可以看其他所有字母，前后都行。",
    ),
    "attention.kind.dec_self.caption": (
        "Decoder masked self-attention: queries, keys and values all come from the decoder's input (<bos>, then "
        "what it has written); the causal mask hides every later position.",
        "解码器掩码自注意力：查询、键和值都来自解码器的输入（<bos> 和它已写出的内容）；因果掩码遮住所有后面的位置。",
    ),
    "attention.kind.cross.caption": (
        "Cross-attention (encoder–decoder attention): the **queries** come from the decoder, the **keys and values** "
        "from the encoder's output — each row is a decoding step, each column an input letter. It is the only path "
        "from the input to the output.",
        "交叉注意力（编码器–解码器注意力）：**查询**来自解码器，**键和值**来自编码器的输出——每一行是一个解码步，"
        "每一列是一个输入字母。这是输入通往输出的唯一通道。",
    ),
    "attention.layer": ("Layer", "层"),
    "attention.head": ("Head", "头"),
    "attention.head.help": (
        "A head is one attention with its own learned projections W^Q, W^K, W^V, from d_model = {d_model} down to "
        "d_k = {d_k} dimensions. The {heads} heads of a layer run side by side on the same input, each with its own "
        "map; their outputs are concatenated ({heads} × {d_k} = {d_model}) and mixed by W^O. Counted from 0.",
        "一个头就是一次注意力，有自己学到的投影 W^Q、W^K、W^V，把 d_model = {d_model} 维降到 d_k = {d_k} 维。"
        "同一层的 {heads} 个头在同一输入上并行运行，各有各的注意力图；它们"
        "的输出拼接起来（{heads} × {d_k} = {d_model}），"
        "再由 W^O 混合。编号从 0 开始。",
    ),
    "attention.layer.help": ("Counted from 0: layer 0 is the first.", "编号从 0 开始：层 0 是第一层。"),
    "attention.heads": ("Heads in the head view", "头视图中显示的头"),
    "attention.view": ("View", "视图"),
    "attention.view.heads": ("head view", "头视图"),
    "attention.view.model": ("model view", "模型视图"),
    "attention.view.dot": ("scaled dot-product", "缩放点积"),
    "attention.view.mask": ("causal mask", "因果掩码"),
    "attention.view.positions": ("positions", "位置编码"),
    # head view
    "attention.heads.caption": (
        "Lines join each query (left) to the keys (right) it attends to; bolder = more weight, one colour per head. "
        "The highlighted query is the current step.",
        "连线把每个查询（左）与它关注的键（右）连起来；线条越浓权重越大，每个头一种颜色。高亮的查询是当前这一步。",
    ),
    "attention.heads.none": ("Pick at least one head.", "请至少选择一个头。"),
    # model view
    "attention.model.caption": (
        "Every layer × head of the chosen attention at this step. Click a map to enlarge it (or pick the layer "
        "and head above).",
        "当前步所选注意力类型的所有层 × 头。点击一个小图即可放大（也可在上方选择层和头）。",
    ),
    "attention.model.enlarged": ("{lh}", "{lh}"),
    # scaled dot-product
    "attention.dot.caption": (
        "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V, for one query: {query}, {kind}, {lh}, with this model's real "
        "numbers (d_k = {d_k}).",
        "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V，针对一个查询：{query}，{kind}，{lh}，使用该模型的真实数值"
        "（d_k = {d_k}）。",
    ),
    "attention.dot.why": (
        "**Why ÷√d_k.** Suppose the d_k components of q and k were independent, with mean 0 and variance 1. Then "
        "q·k, a sum of d_k such products, has variance d_k: the wider the head, the larger the scores, and a "
        "softmax of large scores puts nearly all weight on one key and passes almost no gradient to the others "
        "(section 3.2.1 and its footnote). Dividing by √d_k brings the variance back to 1 whatever d_k is. For "
        "random vectors of this d_k = {d_k}: std of q·k {raw:.2f}, of q·k / √d_k {scaled:.2f}. The trained head "
        "has set its own scale — this query's scaled scores have std {here:.2f} — so the division matters most at "
        "the start of training, when q and k are still random.",
        "**为什么要除以 √d_k。** 假设 q 和 k 的 d_k 个分量相互"
        "独立、均值为 0、方差为 1，那么 q·k 是 d_k 个这样的乘积之和，"
        "方差为 d_k：头越宽，分数越大；对很大的分数做 softmax，几乎全部权重会落在一个键上，其余键几乎得不到梯度"
        "（论文 3.2.1 节及其脚注）。除以 √d_k 后，无论 d_k 多大，方差都回到 1。对这个 d_k = {d_k} 的随机向量："
        "q·k 的标准差为 {raw:.2f}，q·k / √d_k 的为 {scaled:.2f}。训练好的头已经自己定下了尺度——这个查询缩放后分数的"
        "标准差为 {here:.2f}——所以这一除法在训练刚开始、q 和 k 还是随机的时候最重要。",
    ),
    "attention.dot.query": ("Query position (encoder)", "查询位置（编码器）"),
    "attention.dot.qk": (
        "1–2 · the query vector q (numbers printed) and the key vectors K, one row per key (numbers on hover)",
        "1–2 · 查询向量 q（数值已标出）与键向量 K，每行一个键（悬停查看数值）",
    ),
    "attention.dot.table": ("3–5 · q·k, ÷√d_k, mask, softmax", "3–5 · q·k，÷√d_k，掩码，softmax"),
    "attention.dot.col.key": ("key", "键"),
    "attention.dot.col.qk": ("q·k", "q·k"),
    "attention.dot.col.scaled": ("q·k / √d_k", "q·k / √d_k"),
    "attention.dot.col.mask": ("mask", "掩码"),
    "attention.dot.col.weight": ("softmax", "softmax"),
    "attention.dot.col.unscaled": ("softmax without ÷√d_k", "不除以 √d_k 的 softmax"),
    "attention.dot.allowed": ("may attend", "可关注"),
    "attention.dot.masked": ("masked (−∞)", "已屏蔽（−∞）"),
    "attention.dot.unscaled": ("Compare with no ÷√d_k", "对比不除以 √d_k"),
    "attention.dot.unscaled.help": (
        "Without the scaling, dot products grow like √d_k and the softmax saturates: nearly all weight on one key, "
        "tiny gradients for the rest (section 3.2.1 of the paper).",
        "不做缩放时，点积大小随 √d_k 增长，softmax 会饱和：几乎全部权重落在一个键上，"
        "其余键的梯度极小（论文 3.2.1 节）。",
    ),
    "attention.dot.v": ("6 · the values V and their weighted sum", "6 · 值向量 V 及其加权和"),
    "attention.dot.sum": ("Σ weight · v", "Σ 权重 · v"),
    "attention.dot.m.max": ("Largest weight", "最大权重"),
    "attention.dot.m.max_unscaled": ("Largest weight without ÷√d_k", "不缩放时的最大权重"),
    "attention.dot.m.entropy": ("Entropy (bits)", "熵（比特）"),
    "attention.dot.m.check": ("Differs from the model's own map by", "与模型自身注意力图的差异"),
    # causal mask
    "attention.mask.caption": (
        "Left: the decoder's causal mask (1 = may attend). Query t sees keys 0…t only, so output t can depend only "
        "on what was already written. Right: decoder self-attention of {lh}, up to this step — every weight above "
        "the diagonal is exactly 0.",
        "左：解码器的因果掩码（1 = 可关注）。查询 t 只能看到键 0…t，因此输出 t 只能依赖已写出的内容。"
        "右：{lh} 的解码器自注意力（截至当前步）——对角线以上的权重全部为 0。",
    ),
    "attention.mask.title": ("causal mask", "因果掩码"),
    "attention.mask.attention": ("decoder self-attention", "解码器自注意力"),
    # positions
    "attention.pos.caption": (
        "PE(p, 2i) = sin(p / 10000^(2i/d_model)), PE(p, 2i+1) = cos(p / 10000^(2i/d_model)): each pair of "
        "dimensions is a clock with its own period, from 2π to 10000·2π. The table is fixed, not learned, and "
        "defined for any position, which is why the model can at least be run on inputs longer than it was trained "
        "on (dashed box: positions seen in training).",
        "PE(p, 2i) = sin(p / 10000^(2i/d_model))，PE(p, 2i+1) = cos(p / 10000^(2i/d_model))：每对维度像一只"
        "周期不同的时钟，周期从 2π 到 10000·2π。这张表是固定的、不需学习，并且对任意位置都有定义，所以模型至少可以在"
        "比训练时更长的输入上运行（虚线框：训练中出现过的位置）。",
    ),
    "attention.pos.table": ("Sinusoidal encoding: position × dimension", "正弦位置编码：位置 × 维度"),
    "attention.pos.similarity": ("Cosine similarity between positions", "位置之间的余弦相似度"),
    "attention.pos.position": ("position", "位置"),
    "attention.pos.dim": ("dimension", "维度"),
    "attention.pos.value": ("value", "数值"),
    "attention.pos.cosine": ("cosine", "余弦"),
    "attention.pos.m.neighbour": ("Similarity of neighbours (p, p+1)", "相邻位置 (p, p+1) 的相似度"),
    "attention.pos.m.far": ("Similarity at distance 10", "相距 10 的相似度"),
    "attention.pos.why": (
        "**Why sinusoids.** When the position moves by k, each (sin, cos) pair at frequency ωᵢ turns by the same "
        "angle k·ωᵢ, wherever it started. So PE(p + k) = M_k · PE(p) for every p, with one fixed matrix M_k — a "
        "2 × 2 rotation per pair — that depends on the offset k alone. The paper chose sinusoids for this: it "
        "expected that a linear map of PE(p) would let attention learn to look *k places away* from any position "
        "(section 3.5). Below, M_k is applied to every row of the table above and compared with the row k further "
        "on.",
        "**为什么用正弦。** 位置移动 k 时，频率为 ωᵢ 的每一对 (sin, cos) 都转过同一个角度 k·ωᵢ，与起点无关。"
        "因此对每个 p 都有 PE(p + k) = M_k · PE(p)，其中 M_k 是一个固定矩阵——每对维度一个 2 × 2 旋转——只取决于偏移 k。"
        "论文正是为此选择了正弦：作者预期，PE(p) 的线性变换能让注意力学会从任意位置看向*相距 k 的位置*（第 3.5 节）。"
        "下面把 M_k 作用于上表的每一行，并与往后第 k 行比较。",
    ),
    "attention.pos.k": ("Offset k", "偏移 k"),
    "attention.pos.m.offset": ("Largest |M_k·PE(p) − PE(p+k)|, every p", "|M_k·PE(p) − PE(p+k)| 的最大值（所有 p）"),
    "attention.pos.m.offset.help": (
        "Zero up to float32 rounding: the table is computed in float32, as the model uses it.",
        "在 float32 舍入误差范围内为零：这张表按模型使用的方式以 float32 计算。",
    ),
    # explanation
    "attention.explain": (
        "**Attention.** A query is compared with every key by a dot product; a softmax turns the scores into "
        "weights; the output is the weighted sum of the values: Attention(Q, K, V) = softmax(QKᵀ / √d_k) V. The "
        "model uses it three ways: encoder self-attention (Q, K and V from the input), decoder masked "
        "self-attention (from the output so far, later positions hidden) and cross-attention (Q from the decoder, "
        "K and V from the encoder's output).\n\n"
        "**Heads.** A layer runs h attentions side by side, each on its own learned projection to d_k = d_model / h "
        "dimensions, and concatenates their outputs. One head gives each query a single weighted average; several "
        "let a layer look at different places for different reasons at once — the paper's *different "
        "representation subspaces at different positions* — for about the cost of one full-width head. Here "
        "{heads} heads of d_k = {d_k}: in the model view, the heads of the last cross-attention layer differ in "
        "how cleanly they draw the anti-diagonal.\n\n"
        "**Why ÷√d_k, why sinusoids:** see the *scaled dot-product* and *positions* views, each with its "
        "argument and a check on this model's numbers.\n\n"
        "**Longer inputs.** Try 17–20 characters, longer than anything in training. The sinusoidal table is defined "
        "at every position, and because training started each batch at a random row of it, the model had to find "
        "letters by *relative* position: it reverses some of these exactly and slips on others (numbers on the "
        "model card below). Repeated letters (`banana split`) show that a head attending by position still finds "
        "the right copy.\n\n"
        "Paper: Vaswani et al., *Attention Is All You Need*, 2017, "
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762) — sections 3.2 (attention), 3.5 (positions).",
        "**注意力。** 查询与每个键做点积比较；softmax 把分数变成权重；输出是值的加权和："
        "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V。模型以三种方式使用它：编码器自注意力（Q、K、V 都来自输入）、"
        "解码器掩码自注意力（来自已写出的输出，后面的位置被遮住）和交叉"
        "注意力（Q 来自解码器，K 和 V 来自编码器的输出）。\n\n"
        "**多头注意力。** 一层并行运行 h 个注意力，每个在自己学到的投"
        "影上运算（d_k = d_model / h 维），再把输出拼接起来。"
        "一个头只能给每个查询一个加权平均；多个头让同一层能同时出于不同原因看向不同位置——论文所说的*在不同位置关注"
        "不同的表示子空间*——而计算量与一个全宽的头相当。这里有 {heads} 个头，d_k = {d_k}：在模型视图中，"
        "最后一层交叉注意力的各个头画出的反对角线清晰程度各不相同。\n\n"
        "**为什么除以 √d_k、为什么用正弦：** 见*缩放点积*和*位置编码*视图，各有论证，并用这个模型的数值加以验证。\n\n"
        "**更长的输入。** 试试 17–20 个字符（比训练时都长）。正弦位置表对任意位置都有定义；训练时每个批次从表中随机的"
        "一行开始，迫使模型按*相对*位置寻找字母——因此它能把其中"
        "一部分完全反转正确，另一部分会出错（数字见下方的模型卡）。"
        "有重复字母的输入（`banana split`）表明，按位置关注的头依然能找到正确的那一个。\n\n"
        "论文：Vaswani 等，*Attention Is All You Need*，2017，"
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)——第 3.2 节（注意力）、第 3.5 节（位置编码）。",
    ),
    "attention.card": (
        "Model card (held-out strings): exact match {em:.1%} at the training lengths 1–16, {em_long:.1%} at the "
        "unseen lengths 17–20; cross-attention peak on the copied letter {align:.1%} of the time (best head of the "
        "last layer, {head}), {align_avg:.1%} with the heads averaged. {params:,} parameters.",
        "模型卡（留出的字符串）：训练长度 1–16 上完全匹配率 {em:.1%}，未见过的长度 17–20 上为 {em_long:.1%}；"
        "交叉注意力峰值落在被复制字母上的比例为 {align:.1%}（最后一层最佳的头，{head}），各头平均时为 "
        "{align_avg:.1%}。共 {params:,} 个参数。",
    ),
    # the paper's Transformer beside ours
    "attention.pvh.task": ("Task", "任务"),
    "attention.pvh.task.paper": (
        "translation: WMT 2014 English→German and English→French",
        "翻译：WMT 2014 英语→德语、英语→法语",
    ),
    "attention.pvh.task.here": (
        "reverse a string of a–z and spaces, 1–16 characters",
        "反转由 a–z 和空格组成的字符串，长 1–16 个字符",
    ),
    "attention.pvh.layers": ("Layers", "层数"),
    "attention.pvh.layers.paper": ("6 encoder + 6 decoder", "编码器 6 层 + 解码器 6 层"),
    "attention.pvh.layers.here": ("{enc} encoder + {dec} decoder", "编码器 {enc} 层 + 解码器 {dec} 层"),
    "attention.pvh.width": ("d_model / d_ff", "d_model / d_ff"),
    "attention.pvh.width.paper": ("512 / 2048 (base); 1024 / 4096 (big)", "512 / 2048（base）；1024 / 4096（big）"),
    "attention.pvh.heads": ("Heads (d_k)", "头数（d_k）"),
    "attention.pvh.heads.paper": ("8 (64) base; 16 (64) big", "8（64）base；16（64）big"),
    "attention.pvh.params": ("Parameters", "参数量"),
    "attention.pvh.params.paper": ("about 65 M (base), 213 M (big)", "约 6500 万（base），2.13 亿（big）"),
    "attention.pvh.vocab": ("Vocabulary", "词表"),
    "attention.pvh.vocab.paper": (
        "byte-pair encoding shared by source and target, about 37,000 tokens (EN–DE)",
        "源语言与目标语言共享的字节对编码（BPE），约 37,000 个词元（英–德）",
    ),
    "attention.pvh.vocab.here": (
        "{vocab} symbols: a–z, space, <pad>, <bos>, <eos>",
        "{vocab} 个符号：a–z、空格、<pad>、<bos>、<eos>",
    ),
    "attention.pvh.arch": ("Block", "块结构"),
    "attention.pvh.arch.both": (
        "post-LayerNorm, ReLU feed-forward, sinusoidal positions; one embedding matrix for encoder, decoder and "
        "output layer, × √d_model",
        "后置 LayerNorm，ReLU 前馈层，正弦位置编码；编码器、解码器和输出层共用一个嵌入矩阵，乘以 √d_model",
    ),
    "attention.pvh.same": ("the same", "相同"),
    "attention.pvh.reg": ("Regularisation", "正则化"),
    "attention.pvh.reg.paper": ("dropout 0.1, label smoothing 0.1", "dropout 0.1，标签平滑 0.1"),
    "attention.pvh.reg.here": ("none", "无"),
    "attention.pvh.decoding": ("Decoding", "解码"),
    "attention.pvh.decoding.paper": ("beam search, beam 4, length penalty 0.6", "束搜索，束宽 4，长度惩罚 0.6"),
    "attention.pvh.decoding.here": ("greedy", "贪心解码"),
    "attention.pvh.training": ("Training", "训练"),
    "attention.pvh.training.paper": (
        "8 P100 GPUs: 12 hours (base), 3.5 days (big)",
        "8 块 P100 GPU：12 小时（base），3.5 天（big）",
    ),
    "attention.pvh.training.here": ("one CPU thread, {minutes:.0f} minutes", "单个 CPU 线程，{minutes:.0f} 分钟"),
    "attention.pvh.result": ("Headline result", "主要结果"),
    "attention.pvh.result.paper": (
        "BLEU 27.3 (base) and 28.4 (big) on EN–DE; 41.8 (big) on EN–FR",
        "英–德 BLEU 27.3（base）、28.4（big）；英–法 41.8（big）",
    ),
    "attention.pvh.result.here": (
        "exact reversals: {em:.1%} at lengths 1–16, {em_long:.1%} at the unseen 17–20",
        "完全正确的反转：长度 1–16 上 {em:.1%}，未见过的长度 17–20 上 {em_long:.1%}",
    ),
    "attention.pvh.dep.size": (
        "Far smaller, and a toy task whose right answer is known, so that we can check where attention looks.",
        "规模小得多，任务是一个答案已知的玩具任务，这样才能检验注意力看向了哪里。",
    ),
    "attention.pvh.dep.reg": (
        "No dropout and no label smoothing: the task is small and has no noise.",
        "没有 dropout，也没有标签平滑：任务很小，而且没有噪声。",
    ),
    "attention.pvh.dep.shift": (
        "In training only, the source and the target positions start at independent random rows 0–{shift} of the "
        "sinusoidal table in each batch, so that the model has to locate letters by relative position; at "
        "inference both start at row 0, as in the paper.",
        "仅在训练时，每个批次的源序列和目标序列位置各自从正弦表中随机"
        "的行 0–{shift} 开始，迫使模型按相对位置定位字母；"
        "推理时两者都从行 0 开始，与论文相同。",
    ),
    "attention.pvh.dep.greedy": (
        "Greedy decoding instead of beam search: the page follows one output, step by step.",
        "用贪心解码代替束搜索：页面逐步跟踪唯一的一条输出。",
    ),
    # errors
    "attention.error.empty": ("Type at least one letter.", "请至少输入一个字母。"),
    "attention.error.too_long": (
        "The input has {n} characters; the model takes at most {max} (it was trained on up to {trained}).",
        "输入有 {n} 个字符；模型最多接受 {max} 个（训练时最多 {trained} 个）。",
    ),
    "attention.dropped": (
        "The model knows only the letters a–z and the space, so these were left out: {symbols}. It reads “{text}”.",
        "模型只认识字母 a–z 和空格，因此略去了：{symbols}。它读到的是“{text}”。",
    ),
    # knock-outs (app/attention/knockout.py)
    "attention.ko.title": ("Knock out a part of the model", "敲除模型的一部分"),
    "attention.ko.caption": (
        "Run the same input again with one head, or a whole attention or feed-forward sublayer, of the encoder or "
        "the decoder switched off. The model reads the right answer (teacher forcing) to score each character, "
        "and also writes its own answer again.",
        "把同一个输入再跑一遍，但关掉编码器或解码器中的一个头，或整个注意力或前馈子层。模型读入正确答案"
        "（教师强制）来给每个字符打分，同时再自己写一遍答案。",
    ),
    "attention.ko.m.loss": ("Loss on the answer, {what} out", "答案上的损失（敲除 {what}）"),
    "attention.ko.m.loss.help": (
        "Mean −log p(right character) in nats over the reversed text and <eos>, read teacher-forced, plain → "
        "knocked out.",
        "在反转文本及 <eos> 上 −log p(正确字符) 的平均值（奈特，教师强制读取），原始 → 敲除后。",
    ),
    "attention.ko.m.right": ("Characters ranked first", "排第一的正确字符"),
    "attention.ko.m.right.help": (
        "How many of the answer's characters (and <eos>) the model ranks first when it reads the right ones "
        "before them, plain → knocked out.",
        "在读入前面正确字符的情况下，模型把答案中多少个字符（及 <eos>）排在第一，原始 → 敲除后。",
    ),
    "attention.ko.m.answer": ("Its own answer, knocked out", "敲除后它自己的答案"),
    "attention.ko.m.answer.help": (
        "Greedy decoding with the part knocked out (∅: <eos> first, nothing written).",
        "敲除该部分后的贪心解码（∅：第一个就是 <eos>，什么也没写）。",
    ),
    "attention.ko.loss": ("loss (nats)", "损失（奈特）"),
    "attention.ko.read": (
        "Each pair of bars is one character of the right answer. Grey: the plain run; red: the part knocked out. "
        "Where red rises, that character needed the part.",
        "每对柱子是正确答案中的一个字符。灰色：原始运行；红色：敲除该部分后。红色升高的地方，说明这个字符需要这一部分。",
    ),
    "attention.ko.read.default": (
        "On this input, the cross-attention of decoder layer {lh_layer} carries the copy: replace it by zeros and "
        "the model ranks at most one of the {n} characters first; zero any single cross-attention head instead "
        "and it still ranks at least 7 first — the other heads make up for it.",
        "在这个输入上，复制靠的是解码器层 {lh_layer} 的交叉注意力：把它置零，{n} 个字符中至多一个排在第一；"
        "改为只把任意一个交叉注意力头置零，仍至少有 7 个排在第一——其他头弥补了它。",
    ),
}
