"""English and 简体中文 text of the forward-pass page."""

STRINGS = {
    "paper.forward_pass.title": ("Inside one forward pass", "一次前向传播的内部"),
    "paper.forward_pass.probe": (
        "Follow one token through every part of the trained GPT, stage by stage, with the real numbers — and see "
        "which heads and MLPs made its prediction.",
        "跟随一个词元走过训练好的 GPT 的每个部件，逐步查看真实数值，并看清是哪些注意力头和 MLP 做出了预测。",
    ),
    "forward_pass.intro": (
        "The page's GPT (4 pre-LN blocks, width 192, 6 heads) reads your text once. Pick a token position, a layer "
        "and a head: every figure below shows that token's real vectors, read from probes inside the model, and "
        "each step is recomputed here from the displayed parts so you can check it.",
        "本页的 GPT（4 个前置层归一化块，宽度 192，6 个头）把你的文本读一遍。选择一个词元位置、一层和一个头："
        "下面每张图都是这个词元的真实向量，取自模型内部的探针；每一步都会在这里由显示出的部分重新计算，供你核对。",
    ),
    "forward_pass.text": ("Text", "文本"),
    "forward_pass.text.help": (
        "At most {chars} characters and {tokens} tokens (the model's context, <|endoftext|> included).",
        "最多 {chars} 个字符、{tokens} 个词元（模型的上下文长度，含 <|endoftext|>）。",
    ),
    "forward_pass.pos": ("Token position t", "词元位置 t"),
    "forward_pass.pos.help": (
        "The token followed through the model; position 0 is <|endoftext|>.",
        "被跟随的词元；位置 0 是 <|endoftext|>。",
    ),
    "forward_pass.temperature": ("Temperature τ", "温度 τ"),
    "forward_pass.temperature.help": (
        "Divides the logits before the softmax of the last stage.",
        "最后一步 softmax 之前，logits 除以它。",
    ),
    "forward_pass.lh": ("layer {layer} · head {head}", "层 {layer} · 头 {head}"),
    "forward_pass.dim": ("dimension", "维度"),
    "forward_pass.probe": ("model's probe", "模型探针"),
    # in the paper vs here: GPT-2 small (OpenAI 2019 report) and GPT-3 175B (2005.14165, Table 2.1)
    "forward_pass.pvh.model": ("Model", "模型"),
    "forward_pass.pvh.params": ("Parameters", "参数量"),
    "forward_pass.pvh.params.paper": (
        "117 M as reported (124 M counted) · 175 B",
        "报告为 1.17 亿（实数 1.24 亿） · 1750 亿",
    ),
    "forward_pass.pvh.layers": ("Layers", "层数"),
    "forward_pass.pvh.width": ("Width d_model", "宽度 d_model"),
    "forward_pass.pvh.heads": ("Heads × head width", "头数 × 每头宽度"),
    "forward_pass.pvh.heads.paper": ("12 × 64 · 96 × 128", "12 × 64 · 96 × 128"),
    "forward_pass.pvh.context": ("Context (tokens)", "上下文长度（词元）"),
    "forward_pass.pvh.vocab": ("Vocabulary", "词表大小"),
    "forward_pass.pvh.vocab.paper": ("50,257 · GPT-2's BPE, reused", "50,257 · 沿用 GPT-2 的 BPE"),
    "forward_pass.pvh.norm": ("LayerNorm", "LayerNorm 位置"),
    "forward_pass.pvh.norm.paper": (
        "at the input of each sub-block (pre-LN), plus a final one",
        "在每个子层的输入处（前置），另加最终一层",
    ),
    "forward_pass.pvh.norm.here": ("the same", "相同"),
    "forward_pass.pvh.dep.ln": (
        "GPT-2 moved LayerNorm to the input of each sub-block and added one after the last block (pre-LN); the "
        "original Transformer (1706.03762) normalised after each residual add (post-LN). Ours is pre-LN, as GPT-2.",
        "GPT-2 把 LayerNorm 移到每个子层的输入处，并在最后一层之后再加一个（前置 LN）；原始 Transformer"
        "（1706.03762）则在每次残差相加之后归一化（后置 LN）。我们的模型与 GPT-2 一样是前置 LN。",
    ),
    "forward_pass.pvh.dep.size": (
        "Ours has about {ratio:.0f} times fewer parameters than GPT-2 small's 124 M, is trained on Shakespeare "
        "with its own {vocab:,}-token BPE, and uses the exact GELU where GPT-2 used the tanh approximation.",
        "我们的模型参数量约为 GPT-2 small（1.24 亿）的 {ratio:.0f} 分之一，在莎士比亚上训练，用自己的 {vocab:,} 词元 "
        "BPE，并使用精确 GELU，而 GPT-2 用的是 tanh 近似。",
    ),
    "forward_pass.check.ok": ("≤ 1e-4 ✓", "≤ 1e-4 ✓"),
    "forward_pass.check.off": ("> 1e-4", "> 1e-4"),
    "forward_pass.m.tokens": ("Tokens", "词元数"),
    "forward_pass.m.tokens.help": (
        "Byte-level BPE ids, <|endoftext|> first.",
        "字节级 BPE 编号，首个是 <|endoftext|>。",
    ),
    "forward_pass.m.token": ("Followed token", "跟随的词元"),
    "forward_pass.m.predicted": ("Predicted next token", "预测的下一个词元"),
    "forward_pass.m.check_logits": ("Recomposed logits: max |Δ|", "重组 logits：最大 |Δ|"),
    "forward_pass.m.check_logits.caption": (
        "The final logits rebuilt from the parts shown on this page (embeddings, each head through its rows of W_O, "
        "the b_O biases, each MLP, then LN_f and Eᵀ), against the model's own output. A float64 numpy forward pass "
        "that reads only the weights differs from it by at most {numpy}.",
        "由本页显示的部分（嵌入、每个头经其 W_O 行、各层 b_O 偏置、每个 MLP，再经 LN_f 和 Eᵀ）重建的最终 logits，"
        "与模型自己的输出比较。只读取权重的 float64 numpy 前向传播与之最多相差 {numpy}。",
    ),
    # 1
    "forward_pass.s1.title": ("1 · Tokens and embeddings", "1 · 词元与嵌入"),
    "forward_pass.s1.strip": ("followed token", "跟随的词元"),
    "forward_pass.s1.m.id": ("Token id", "词元编号"),
    "forward_pass.s1.m.check": ("E + P vs probe: max |Δ|", "E + P 与探针：最大 |Δ|"),
    "forward_pass.s1.text": (
        "Byte-level BPE cuts the text into pieces from a vocabulary of 2048. The token's id picks a row of the "
        "token embedding E and its position t a row of the learned position table P; their sum x₀ ({d} numbers) "
        "starts the residual stream.",
        "字节级 BPE 把文本切成来自 2048 词表的片段。词元编号选出词嵌入 E 的一行，位置 t 选出可学习位置表 P 的一行；"
        "两者之和 x₀（{d} 个数）就是残差流的起点。",
    ),
    # 2
    "forward_pass.s2.title": ("2 · LayerNorm before attention (layer {layer})", "2 · 注意力前的层归一化（层 {layer}）"),
    "forward_pass.s2.m.mean": ("Mean of x", "x 的均值"),
    "forward_pass.s2.m.std": ("σ = √(var + ε)", "σ = √(var + ε)"),
    "forward_pass.s2.m.hat": ("x̂: mean / variance", "x̂：均值 / 方差"),
    "forward_pass.s2.m.check": ("Recomputed vs probe: max |Δ|", "重算与探针：最大 |Δ|"),
    "forward_pass.s2.before": ("x (the stream entering the layer)", "x（进入该层的残差流）"),
    "forward_pass.s2.hat": ("x̂ = (x − mean) / σ", "x̂ = (x − 均值) / σ"),
    "forward_pass.s2.after": ("LN(x) = γ ⊙ x̂ + β", "LN(x) = γ ⊙ x̂ + β"),
    "forward_pass.s2.text": (
        "GPT-2 puts LayerNorm at the input of each sub-block (pre-LN). It subtracts the vector's mean and divides "
        "by its standard deviation, so x̂ has mean 0 and variance 1, then scales each dimension by a learned γ and "
        "shifts it by β. The stream itself is left untouched: only the copy fed to attention is normalised.",
        "GPT-2 把层归一化放在每个子块的输入端（前置层归一化）。它减去向量的均值、除以标准差，使 x̂ 的均值为 0、"
        "方差为 1，再按维乘以可学习的 γ、加上 β。残差流本身不变：只有送入注意力的那份副本被归一化。",
    ),
    # 3
    "forward_pass.s3.title": ("3 · Queries, keys and values (layer {layer})", "3 · 查询、键和值（层 {layer}）"),
    "forward_pass.s3.m.dhead": ("d_head = d_model / h", "d_head = d_model / h"),
    "forward_pass.s3.m.check": ("W·LN(x) + b vs probes: max |Δ|", "W·LN(x) + b 与探针：最大 |Δ|"),
    "forward_pass.s3.w": ("W_Q rows of head {head}", "头 {head} 的 W_Q 行"),
    "forward_pass.s3.text": (
        "Three matrices turn LN(x) into a query q = W_Q·LN(x) + b_Q, a key k and a value v, each as wide as the "
        "stream. The {h} heads split each of them into slices of d_head = {d}: the top figure is one head's "
        "{d} rows of W_Q times the vector, the lower one q, k, v of all heads (the chosen head boxed).",
        "三个矩阵把 LN(x) 变成查询 q = W_Q·LN(x) + b_Q、键 k 和值 v，宽度都与残差流相同。{h} 个头把它们各切成 "
        "d_head = {d} 的片段：上图是一个头的 {d} 行 W_Q 乘以向量，下图是所有头的 q、k、v（所选的头有框）。",
    ),
    # 4
    "forward_pass.s4.title": ("4 · One head's attention ({lh})", "4 · 一个头的注意力（{lh}）"),
    "forward_pass.s4.m.top": ("Most attended key", "最受关注的键"),
    "forward_pass.s4.m.check": ("softmax vs pattern probe: max |Δ|", "softmax 与注意力探针：最大 |Δ|"),
    "forward_pass.s4.m.check_v": ("Σ w·v vs context probe: max |Δ|", "Σ w·v 与 context 探针：最大 |Δ|"),
    "forward_pass.s4.scores": ("q·k ÷ √{d} for every key", "每个键的 q·k ÷ √{d}"),
    "forward_pass.s4.weights": ("softmax over the allowed keys", "对允许的键做 softmax"),
    "forward_pass.s4.masked": ("masked (after t)", "被遮盖（t 之后）"),
    "forward_pass.s4.text": (
        "The query of position {t} meets the key of every position: q·k, divided by √{d} so the scores do not "
        "grow with the head width. The causal mask removes the keys after t (a decoder may not read the future); "
        "softmax turns the rest into weights that sum to 1 (green bars; the short ticks are the model's own "
        "pattern probe), and the head's output is the weighted sum of the values v.",
        "位置 {t} 的查询与每个位置的键相遇：q·k 再除以 √{d}，使分数不随头宽增大。因果遮罩去掉 t 之后的键"
        "（解码器不能读未来）；softmax 把其余分数变成和为 1 的权重（绿色柱；短横线是模型自己的注意力探针），"
        "该头的输出就是值 v 的加权和。",
    ),
    # 5
    "forward_pass.s5.title": (
        "5 · All heads, W_O and the residual add (layer {layer})",
        "5 · 所有头、W_O 与残差相加（层 {layer}）",
    ),
    "forward_pass.s5.concat": ("concat(head outputs)", "concat(各头输出)"),
    "forward_pass.s5.m.check_wo": ("W_O·concat + b_O vs probe", "W_O·concat + b_O 与探针"),
    "forward_pass.s5.m.check_add": ("x + Attn vs probe", "x + Attn 与探针"),
    "forward_pass.s5.text": (
        "The heads' outputs ({d} numbers each) are laid side by side and multiplied by W_O, which mixes them back "
        "into the stream's basis. The result is added to x: attention writes into the residual stream rather than "
        "replacing it.",
        "各头的输出（每个 {d} 个数）并排拼接，再乘以 W_O，把它们混合回残差流的坐标。结果加到 x 上：注意力是向残差流"
        "写入，而不是替换它。",
    ),
    # 6
    "forward_pass.s6.title": ("6 · The MLP (layer {layer})", "6 · MLP（层 {layer}）"),
    "forward_pass.s6.m.active": ("Pre-activations > 0", "预激活 > 0 的比例"),
    "forward_pass.s6.m.active.help": (
        "Share of the hidden units with u > 0. GELU(u) = u·Φ(u) scales a positive u by Φ(u), between ½ and 1: "
        "close to u only for large u (Φ(1) ≈ 0.84). A negative u comes out small and negative.",
        "u > 0 的隐藏单元所占比例。GELU(u) = u·Φ(u) 把正的 u 乘以 Φ(u)，介于 ½ 与 1 之间：只有 u 较大时才接近 u"
        "（Φ(1) ≈ 0.84）。负的 u 输出为很小的负数。",
    ),
    "forward_pass.s6.m.check_fc1": ("W₁·LN₂(x) + b₁ vs probe", "W₁·LN₂(x) + b₁ 与探针"),
    "forward_pass.s6.m.check_gelu": ("GELU vs probe", "GELU 与探针"),
    "forward_pass.s6.m.check_fc2": ("W₂·GELU + b₂, add vs probes", "W₂·GELU + b₂ 及相加与探针"),
    "forward_pass.s6.count": ("hidden units", "隐藏单元数"),
    "forward_pass.s6.pre": ("pre-activation u = W₁·LN₂(x) + b₁", "预激活 u = W₁·LN₂(x) + b₁"),
    "forward_pass.s6.text": (
        "A second LayerNorm, then the up-projection W₁ to {f} hidden units (4 × the width), GELU, and the "
        "down-projection W₂ back to the stream, which is added to it. Our GELU is the exact x·Φ(x); GPT-2 used "
        "the tanh approximation, which differs by less than 1e-3.",
        "再经一次层归一化，然后用 W₁ 上投影到 {f} 个隐藏单元（宽度的 4 倍），经过 GELU，再由 W₂ 下投影回残差流的宽度"
        "并加到残差流上。我们的 GELU 是精确的 x·Φ(x)；GPT-2 用的是 tanh 近似，两者相差不到 1e-3。",
    ),
    # 7
    "forward_pass.s7.title": ("7 · Layer after layer", "7 · 一层接一层"),
    "forward_pass.s7.embed": ("x₀", "x₀"),
    "forward_pass.s7.attn": ("{layer} attn", "{layer} 注意力"),
    "forward_pass.s7.mlp": ("{layer} MLP", "{layer} MLP"),
    "forward_pass.s7.m.norm": ("‖stream‖ after layer {layer}", "层 {layer} 之后的 ‖残差流‖"),
    "forward_pass.s7.stream": ("‖residual stream‖", "‖残差流‖"),
    "forward_pass.s7.write": ("‖what the step writes‖", "‖该步写入的量‖"),
    "forward_pass.s7.text": (
        "Steps 2–6 repeat in each of the {layers} blocks, each reading the stream and adding its output. The bars "
        "are the size of each write (the chosen layer in blue), the line the size of the stream after it.",
        "第 2–6 步在 {layers} 个块中逐一重复，每一步读取残差流并加上自己的输出。柱子是每次写入的大小（所选层为蓝色），"
        "折线是写入后残差流的大小。",
    ),
    # 8
    "forward_pass.s8.title": ("8 · Final LayerNorm, unembedding, softmax", "8 · 最终层归一化、反嵌入与 softmax"),
    "forward_pass.try.do": (
        "Open the steps one by one with the default text: in each, a “check” recomputes it by hand (numpy) from "
        "the step before. Then, at step 8, drag τ from 1 to 0.5.",
        "用默认文本逐个打开各个步骤：每一步里的“核对”都用 numpy 从上一步手算一遍。然后在第 8 步把 τ 从 1 拖到 0.5。",
    ),
    # the step picker
    "forward_pass.step": ("Step", "步骤"),
    "forward_pass.tab.embed": ("1 · Embedding", "1 · 嵌入"),
    "forward_pass.tab.ln": ("2 · LayerNorm", "2 · 层归一化"),
    "forward_pass.tab.qkv": ("3 · q, k, v", "3 · q、k、v"),
    "forward_pass.tab.attention": ("4 · Attention", "4 · 注意力"),
    "forward_pass.tab.out": ("5 · W_O + residual", "5 · W_O 与残差"),
    "forward_pass.tab.mlp": ("6 · MLP", "6 · MLP"),
    "forward_pass.tab.layers": ("7 · Every layer", "7 · 每一层"),
    "forward_pass.tab.predict": ("8 · Prediction", "8 · 预测"),
    "forward_pass.tab.dla": ("Which parts?", "哪些部件？"),
    "forward_pass.try.see": (
        "Every check reads a difference of at most 1e-4 (times the values' scale where it exceeds 1), down to the "
        "logits: the arithmetic on the page is the "
        "model's own. τ keeps the ranking and sharpens it: “{token}” goes from {p1:.1%} to {p2:.1%}.",
        "每个核对的差都不超过 1e-4（数值尺度大于 1 时乘以该尺度），一直到 logits：页面上的算术就是模型自己的算术。"
        "τ 不改变排序，只让分布更尖："
        "“{token}”从 {p1:.1%} 变为 {p2:.1%}。",
    ),
    "forward_pass.try.why": (
        "A forward pass is nothing but these steps: embedding, LayerNorm, q/k/v, softmax(qkᵀ/√D), W_O and the "
        "residual add, the MLP, then the unembedding. Dividing the logits by τ < 1 stretches their gaps, so the top "
        "token gains and nothing changes place.",
        "一次前向传播就是这些步骤：嵌入、LayerNorm、q/k/v、softmax(qkᵀ/√D)、W_O 与残差相加、MLP，最后是反嵌入。"
        "把 logits 除以 τ < 1 会拉大它们之间的差距，所以最高的词元概率上升，而排序不变。",
    ),
    "forward_pass.s8.m.logit": ("Logit of the top token", "最高词元的 logit"),
    "forward_pass.s8.m.p": ("Its probability at τ", "它在 τ 下的概率"),
    "forward_pass.s8.m.next": ("Actual next token", "实际的下一个词元"),
    "forward_pass.s8.prob": ("softmax(logits / {tau})", "softmax(logits / {tau})"),
    "forward_pass.s8.text": (
        "A final LayerNorm, then the product with the token embedding E again (the output is tied to the input "
        "embedding): one logit per vocabulary entry. Dividing by the temperature τ and a softmax give the "
        "next-token distribution; τ below 1 sharpens it, above 1 flattens it.",
        "再经最终层归一化，然后再次与词嵌入 E 相乘（输出层与输入嵌入共享权重）：每个词表项得到一个 logit。"
        "除以温度 τ 再做 softmax，得到下一个词元的分布；τ 小于 1 使其更尖锐，大于 1 使其更平坦。",
    ),
    # direct logit attribution
    "forward_pass.dla.title": ("Which parts predicted “{token}”?", "哪些部件预测了“{token}”？"),
    "forward_pass.dla.token": ("token embedding", "词嵌入"),
    "forward_pass.dla.position": ("position", "位置嵌入"),
    "forward_pass.dla.bias": ("layer {layer} · b_O", "层 {layer} · b_O"),
    "forward_pass.dla.mlp": ("layer {layer} · MLP", "层 {layer} · MLP"),
    "forward_pass.dla.ln_bias": ("LN_f bias β·E", "LN_f 偏置 β·E"),
    "forward_pass.dla.total": ("logit", "logit"),
    "forward_pass.dla.value": ("contribution to the logit", "对 logit 的贡献"),
    "forward_pass.dla.m.best": ("Largest contribution", "最大贡献"),
    "forward_pass.dla.m.sum": ("Σ contributions + bias", "Σ 贡献 + 偏置"),
    "forward_pass.dla.m.check": ("vs the logit: |Δ|", "与 logit 相比：|Δ|"),
    "forward_pass.dla.text": (
        "The final stream is a sum: embeddings, each head's output through its rows of W_O, the b_O biases and "
        "each MLP's output. Direct logit attribution projects each part through LN_f onto the predicted token's "
        "row of E: (γ ⊙ (x_c − mean(x_c)) / σ) · E[token]. The LayerNorm's σ is frozen at its value for the whole "
        "stream — the standard approximation — which makes the parts add up exactly to the logit (check above).",
        "最终的残差流是一个和：嵌入、每个头经其 W_O 行的输出、各层 b_O 偏置，以及每个 MLP 的输出。直接 logit 归因"
        "把每一部分经 LN_f 投影到所预测词元在 E 中的那一行：(γ ⊙ (x_c − mean(x_c)) / σ) · E[词元]。层归一化的 σ "
        "固定为整个残差流上的值——这是标准近似——因此各部分恰好加总为该 logit（见上方核对）。",
    ),
    "forward_pass.readout": (
        "Always the torch backend: the exported ONNX graph carries only some probes (embeddings, the stream after "
        "each block, attention patterns), not every step inside a block that this page shows.",
        "始终使用 torch 后端：导出的 ONNX 图只带有部分探针（嵌入、每块之后的残差流、注意力模式），"
        "没有本页展示的块内每一步。",
    ),
    "forward_pass.explain": (
        "**What you see.** One token's path through a decoder-only Transformer (Vaswani et al. 2017, "
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)) in the GPT-2 arrangement (Radford et al. 2019, "
        "*Language Models are Unsupervised Multitask Learners*: pre-LN, a final LayerNorm, byte-level BPE, tied "
        "embeddings), the design GPT-3 scales up ([arXiv:2005.14165](https://arxiv.org/abs/2005.14165)). Every "
        "vector is the trained model's own; every step is recomputed and checked.\n\n"
        "**Try.** Move t to a token whose next token is easy to guess (the second half of a repeated name) and see "
        "which head carries the prediction in “Which parts?”; in “7 · Every layer”, step the layer and watch the "
        "stream grow.",
        "**你看到的。** 一个词元在仅解码器 Transformer（Vaswani 等 2017，"
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)）中的路径，采用 GPT-2 的结构（Radford 等 2019，"
        "*Language Models are Unsupervised Multitask Learners*：前置层归一化、最终层归一化、字节级 BPE、共享嵌入），"
        "GPT-3 正是把这一设计放大（[arXiv:2005.14165](https://arxiv.org/abs/2005.14165)）。每个向量都来自训练好的模型，"
        "每一步都重新计算并核对。\n\n"
        "**试试。** 把 t 移到下一个词元容易猜的位置（重复名字的后半部分），在“哪些部件？”里看是哪个头承担了预测；"
        "在“7 · 每一层”里逐层移动，观察残差流如何增长。",
    ),
    "forward_pass.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "forward_pass.error.too_long_chars": (
        "The text has {n} characters; this page reads at most {max}. Shorten it.",
        "文本有 {n} 个字符；本页最多读取 {max} 个。请缩短。",
    ),
    "forward_pass.error.too_long_tokens": (
        "The text is {n} tokens with <|endoftext|>; the model's context holds {max}. Shorten it.",
        "文本含 <|endoftext|> 共 {n} 个词元；模型的上下文只能容纳 {max} 个。请缩短。",
    ),
    "forward_pass.error.layer": (
        "The model has {layers} layers and {heads} heads (counted from 0).",
        "模型有 {layers} 层、{heads} 个头（从 0 开始计数）。",
    ),
    "forward_pass.error.temperature": (
        "The temperature must lie between 0.05 and 5.",
        "温度必须在 0.05 到 5 之间。",
    ),
    # ---- a real Llama-family checkpoint (the picker at the top) ----
    "forward_pass.intro.real": (
        "**{title}**, a real pretrained model converted into this app's classes, reads your text once ({layers} "
        "Llama blocks, width {dim}, {heads} query heads sharing {kv} key/value heads; at most {max} tokens here, "
        "since it runs on a CPU). Pick a position, a layer and a head: every figure shows that token's real vectors, "
        "and each step is recomputed here in float64 from the weights and checked against the model's next probe.",
        "**{title}**：一个转换成本应用模型类的真实预训练模型，把你的文本读一遍（{layers} 个 Llama 块，宽度 {dim}，"
        "{heads} 个查询头共享 {kv} 个键/值头；这里在 CPU 上运行，最多 {max} 个词元）。选择一个位置、一层和一个头："
        "每张图都是这个词元的真实向量，每一步都在这里用权重以 float64 重新计算，并与模型的下一个探针核对。",
    ),
    "forward_pass.try.why.real": (
        "A Llama block's pass is these steps: the token embedding, RMSNorm, q/k/v with q and k rotated by RoPE, "
        "softmax(qkᵀ/√D) with several query heads sharing a key/value head, W_O and the residual add, SwiGLU, then "
        "the final RMSNorm and the unembedding. Dividing the logits by τ < 1 stretches their gaps: the top token "
        "gains and nothing changes place.",
        "Llama 块的一次前向传播就是这些步骤：词嵌入、RMSNorm、q/k/v（q 和 k 由 RoPE 旋转）、softmax(qkᵀ/√D)"
        "（多个查询头共享一个键/值头）、W_O 与残差相加、SwiGLU，最后是最终 RMSNorm 与反嵌入。把 logits 除以 τ < 1 "
        "会拉大差距：最高的词元概率上升，排序不变。",
    ),
    "forward_pass.text.help.real": (
        "At most {chars} characters and {tokens} tokens (a real model runs on a CPU here). Nothing is put before "
        "the text: this model's tokenizer adds no start token.",
        "最多 {chars} 个字符、{tokens} 个词元（真实模型在这里用 CPU 运行）。文本前不加任何词元：该模型的分词器不添加"
        "起始词元。",
    ),
    "forward_pass.error.too_long_tokens_real": (
        "The text is {n} tokens; on a real model this page reads at most {max} (it runs on a CPU). Shorten it.",
        "文本有 {n} 个词元；在真实模型上本页最多读取 {max} 个（在 CPU 上运行）。请缩短。",
    ),
    "forward_pass.m.tokens.help.real": (
        "Tokens of the text as the model's own tokenizer cuts it; no start token.",
        "模型自己的分词器切出的词元数；没有起始词元。",
    ),
    "forward_pass.pvh.kv": ("{kv} key/value heads", "{kv} 个键/值头"),
    "forward_pass.pvh.norm.llama": (
        "RMSNorm at each sub-block's input, plus a final one",
        "每个子层输入处的 RMSNorm，另加最终一层",
    ),
    "forward_pass.pvh.here.real": ("here ({title})", "这里（{title}）"),
    "forward_pass.pvh.dep.llama": (
        "A Llama block, not GPT-2's: RMSNorm (no mean, no bias) for LayerNorm, no position table (RoPE rotates q "
        "and k), grouped-query attention, SwiGLU for GELU, no biases anywhere. The output matrix is tied to the "
        "token embedding, as in GPT-2.",
        "Llama 块，而非 GPT-2 的：用 RMSNorm（不减均值、无偏置）代替 LayerNorm，没有位置表（RoPE 旋转 q 和 k），"
        "分组查询注意力，用 SwiGLU 代替 GELU，处处没有偏置。输出矩阵与词嵌入共享，与 GPT-2 相同。",
    ),
    "forward_pass.llama.check_logits.caption": (
        "The final logits rebuilt from the parts shown on this page (the token embedding, each head through its "
        "columns of W_O, each SwiGLU, then the final RMSNorm and Eᵀ), against the model's own output. A float64 "
        "numpy forward pass that reads only the weights differs from it by at most {numpy}.",
        "由本页显示的部分（词嵌入、每个头经其 W_O 列、每个 SwiGLU，再经最终 RMSNorm 和 Eᵀ）重建的最终 logits，"
        "与模型自己的输出比较。只读取权重的 float64 numpy 前向传播与之最多相差 {numpy}。",
    ),
    "forward_pass.dla.rest": ("the other {n} parts", "其余 {n} 个部件"),
    "forward_pass.llama.dla.text": (
        "The final stream is a sum of {n} parts: the token embedding, each head's output through its columns of "
        "W_O, and each SwiGLU's output. Each is projected through the final RMSNorm onto the predicted token's row "
        "of E: (g ⊙ x_c / rms) · E[token], with the rms frozen at its value for the whole stream, which makes the "
        "parts add up exactly to the logit (RMSNorm has no mean to subtract and no bias). The {shown} largest are "
        "named; the rest are summed in one bar.",
        "最终的残差流是 {n} 个部件之和：词嵌入、每个头经其 W_O 列的输出、每个 SwiGLU 的输出。每一部分经最终 RMSNorm "
        "投影到所预测词元在 E 中的那一行：(g ⊙ x_c / rms) · E[词元]，rms 固定为整个残差流上的值，因此各部分恰好加总为"
        "该 logit（RMSNorm 不减均值，也没有偏置）。列出最大的 {shown} 个，其余合为一根柱。",
    ),
    "forward_pass.llama.tab.ln": ("2 · RMSNorm", "2 · RMSNorm"),
    "forward_pass.llama.tab.qkv": ("3 · q, k, v, RoPE", "3 · q、k、v 与 RoPE"),
    "forward_pass.llama.tab.mlp": ("6 · SwiGLU", "6 · SwiGLU"),
    "forward_pass.llama.s1.title": ("1 · Tokens and the embedding", "1 · 词元与嵌入"),
    "forward_pass.llama.s1.m.angles": ("RoPE angle at t: fastest · slowest pair", "t 处的 RoPE 角：最快 · 最慢的一对"),
    "forward_pass.llama.s1.m.angles.help": (
        "m·θᵢ in radians for the first and last pair of a head's dimensions, θᵢ = base^(−2i/D). Nothing is added "
        "to x₀: the position turns q and k in step 3.",
        "一个头的第一对和最后一对维度的 m·θᵢ（弧度），θᵢ = base^(−2i/D)。x₀ 上什么也不加：位置在第 3 步旋转 q 和 k。",
    ),
    "forward_pass.llama.s1.text": (
        "The tokenizer cuts the text into pieces of its vocabulary; the token's id picks a row of the embedding E, "
        "and that row alone ({d} numbers) starts the residual stream. There is no position table to add: the "
        "position t = {t} enters inside attention, as a rotation of q and k (RoPE, step 3).",
        "分词器把文本切成词表中的片段；词元编号选出嵌入 E 的一行，仅这一行（{d} 个数）就是残差流的起点。这里没有位置表"
        "可加：位置 t = {t} 在注意力内部以 q 和 k 的旋转进入（RoPE，第 3 步）。",
    ),
    "forward_pass.llama.s2.title": (
        "2 · RMSNorm before attention (layer {layer})",
        "2 · 注意力前的 RMSNorm（层 {layer}）",
    ),
    "forward_pass.llama.s2.m.rms": ("rms = √(mean(x²) + ε)", "rms = √(mean(x²) + ε)"),
    "forward_pass.llama.s2.m.mean": ("Mean of x (kept)", "x 的均值（保留）"),
    "forward_pass.llama.s2.m.hat": ("rms of x̂", "x̂ 的 rms"),
    "forward_pass.llama.s2.m.check": ("W_V·RMSNorm(x) vs v probe", "W_V·RMSNorm(x) 与 v 探针"),
    "forward_pass.llama.s2.hat": ("x̂ = x / rms", "x̂ = x / rms"),
    "forward_pass.llama.s2.after": ("RMSNorm(x) = g ⊙ x̂", "RMSNorm(x) = g ⊙ x̂"),
    "forward_pass.llama.s2.text": (
        "RMSNorm divides the vector by its root mean square, so x̂ has rms 1, and scales each dimension by a "
        "learned g. Unlike LayerNorm it neither subtracts the mean nor adds a bias: cheaper, and as good in "
        "practice. The model records no probe here, so the check multiplies the result by W_V and compares it with "
        "the v probe (v is not rotated).",
        "RMSNorm 把向量除以其均方根，使 x̂ 的 rms 为 1，再按维乘以可学习的 g。与 LayerNorm 不同，它既不减均值也不加"
        "偏置：更省算力，效果相当。模型在这里没有探针，所以核对时把结果乘以 W_V，再与 v 探针比较（v 不旋转）。",
    ),
    "forward_pass.llama.s3.title": ("3 · q, k, v and RoPE (layer {layer})", "3 · q、k、v 与 RoPE（层 {layer}）"),
    "forward_pass.llama.s3.m.heads": ("Query / key-value heads", "查询头 / 键值头"),
    "forward_pass.llama.s3.m.heads.help": (
        "Grouped-query attention: each key/value head serves several query heads, so the KV cache is that many "
        "times smaller.",
        "分组查询注意力：每个键/值头服务于多个查询头，KV 缓存因此缩小同样的倍数。",
    ),
    "forward_pass.llama.s3.m.kv": ("This head reads", "该头读取"),
    "forward_pass.llama.s3.kv": ("h{head} → kv head {g}", "h{head} → 键值头 {g}"),
    "forward_pass.llama.s3.m.check": ("RoPE(W·x) vs q, k probes", "RoPE(W·x) 与 q、k 探针"),
    "forward_pass.llama.s3.q": ("q before RoPE", "RoPE 之前的 q"),
    "forward_pass.llama.s3.q_rot": ("q after RoPE", "RoPE 之后的 q"),
    "forward_pass.llama.s3.dim": ("dimension of the head", "头内维度"),
    "forward_pass.llama.s3.text": (
        "W_Q gives {h} query heads of {d} numbers; W_K and W_V give only {g} key and value heads, each shared by "
        "{share} query heads. RoPE then turns each pair (q₂ᵢ, q₂ᵢ₊₁) — and the same pairs of k — by the angle t·θᵢ "
        "(t = {t}): the first pairs spin fast, the last barely move. A query and a key then meet with a dot product "
        "that depends on their positions only through the distance between them.",
        "W_Q 给出 {h} 个查询头，每个 {d} 个数；W_K 和 W_V 只给出 {g} 个键头和值头，每个由 {share} 个查询头共享。"
        "随后 RoPE 把每一对 (q₂ᵢ, q₂ᵢ₊₁)——以及 k 的同样各对——旋转 t·θᵢ（t = {t}）：前面的维度对转得快，最后的几乎不动。"
        "于是查询与键的点积只通过二者的距离依赖位置。",
    ),
    "forward_pass.llama.s4.gqa": (
        "Query head {head} scores the keys of key/value head {g}, which it shares with {share} query heads in all; "
        "the weighted sum is over that head's values.",
        "查询头 {head} 对键/值头 {g} 的键打分（共有 {share} 个查询头共享它）；加权求和的也是该头的值。",
    ),
    "forward_pass.llama.s5.m.check": ("RMSNorm₂(x + Attn)·W₁ vs gate probe", "RMSNorm₂(x + Attn)·W₁ 与 gate 探针"),
    "forward_pass.llama.s5.text": (
        "The heads' outputs ({d} numbers each) are laid side by side and multiplied by W_O (no bias), and the "
        "result is added to x. The model records no probe of the sum, so the check carries it through the next "
        "RMSNorm, W₁ and SiLU and compares with the SwiGLU's gate probe.",
        "各头的输出（每个 {d} 个数）并排拼接，乘以 W_O（无偏置），结果加到 x 上。模型没有记录这个和的探针，"
        "所以核对时把它经过下一个 RMSNorm、W₁ 和 SiLU，与 SwiGLU 的 gate 探针比较。",
    ),
    "forward_pass.llama.s6.title": ("6 · SwiGLU (layer {layer})", "6 · SwiGLU（层 {layer}）"),
    "forward_pass.llama.s6.m.active.help": (
        "Share of the gate's units with u > 0. SiLU(u) = u·σ(u) passes a large positive u almost as it is and "
        "turns a negative u into a small negative number.",
        "gate 中 u > 0 的单元比例。SiLU(u) = u·σ(u) 让较大的正 u 几乎原样通过，把负的 u 变为很小的负数。",
    ),
    "forward_pass.llama.s6.m.check_up": ("W₃·RMSNorm₂(x) vs up probe", "W₃·RMSNorm₂(x) 与 up 探针"),
    "forward_pass.llama.s6.m.check_act": ("gate ⊙ up vs probe", "gate ⊙ up 与探针"),
    "forward_pass.llama.s6.m.check_add": ("x + W₂·(…) vs stream probe", "x + W₂·(…) 与残差流探针"),
    "forward_pass.llama.s6.pre": ("gate pre-activation u = W₁·RMSNorm₂(x)", "gate 预激活 u = W₁·RMSNorm₂(x)"),
    "forward_pass.llama.s6.text": (
        "A second RMSNorm, then two projections to {f} hidden units: a gate SiLU(W₁x) and a value W₃x, multiplied "
        "unit by unit; W₂ brings the product back to the stream, which it is added to. Three matrices instead of "
        "GPT-2's two, with a narrower hidden layer to cost the same.",
        "再经一次 RMSNorm，然后两个投影到 {f} 个隐藏单元：门 Si"
        "LU(W₁x) 和值 W₃x，逐单元相乘；W₂ 把乘积投回残差流并加上。"
        "三个矩阵而非 GPT-2 的两个，隐藏层更窄以保持相同的计算量。",
    ),
    "forward_pass.llama.s7.text": (
        "Steps 2–6 repeat in each of the {layers} blocks. The bars are the size of each write (the chosen layer in "
        "blue), the line the size of the stream after it: a real model's stream grows large, and a few dimensions "
        "carry much of it.",
        "第 2–6 步在 {layers} 个块中逐一重复。柱子是每次写入的大小（所选层为蓝色），折线是写入后残差流的大小："
        "真实模型的残差流会变得很大，而且少数几个维度承载了其中很大一部分。",
    ),
    "forward_pass.llama.s8.title": ("8 · Final RMSNorm, unembedding, softmax", "8 · 最终 RMSNorm、反嵌入与 softmax"),
    "forward_pass.llama.s8.text": (
        "A final RMSNorm, then the product with the token embedding E again (tied): one logit for each of the "
        "{vocab:,} tokens. Dividing by τ and a softmax give the next-token distribution.",
        "最终 RMSNorm，然后再次与词嵌入 E 相乘（共享权重）：{vocab:,} 个词元各得一个 logit。除以 τ 再做 softmax，"
        "得到下一个词元的分布。",
    ),
    "forward_pass.explain.real": (
        "**What you see.** One token's path through a real Llama-family decoder: the GPT-2 arrangement (pre-norm, "
        "a final norm, tied embeddings; Radford et al. 2019) with LLaMA's parts (Touvron et al. 2023, "
        "[arXiv:2302.13971](https://arxiv.org/abs/2302.13971)): RMSNorm, rotary positions (RoFormer, "
        "[arXiv:2104.09864](https://arxiv.org/abs/2104.09864)), grouped-query attention "
        "([arXiv:2305.13245](https://arxiv.org/abs/2305.13245)) and SwiGLU. Every vector is the real model's; the "
        "steps without a probe of their own are recomputed and checked by the next probe that reads them.\n\n"
        "**Try.** Switch the model back to ours and compare step 2 (LayerNorm against RMSNorm), step 6 (GELU "
        "against SwiGLU) and “Which parts?”: in a 30-layer model many small parts share a prediction.",
        "**你看到的。** 一个词元在真实 Llama 系列解码器中的路径：GPT-2 的结构（前置归一化、最终归一化、共享嵌入；"
        "Radford 等 2019），加上 LLaMA 的部件（Touvron 等 2023，[arXi"
        "v:2302.13971](https://arxiv.org/abs/2302.13971)）："
        "RMSNorm、旋转位置编码（RoFormer，[arXiv:2104.09864](https://arxiv.org/abs/2104.09864)）、分组查询注意力"
        "（[arXiv:2305.13245](https://arxiv.org/abs/2305.13245)）和 SwiGLU。每个向量都来自真实模型；没有自己探针的步骤"
        "会重新计算，并由读取它的下一个探针核对。\n\n"
        "**试试。** 把模型切回我们的，比较第 2 步（LayerNorm 与 RMSNorm）、第 6 步（GELU 与 SwiGLU）和“哪些部件？”："
        "在 30 层的模型里，一个预测由许多小部件共同完成。",
    ),
    # 9 · knock-outs (app/forward_pass/knockout.py)
    "forward_pass.ko.title": ("9 · Knock out a part of the model", "9 · 敲除模型的一部分"),
    "forward_pass.ko.caption": (
        "Run the same text again with one head, or a whole layer's attention or MLP, switched off, and compare "
        "how well the model predicts each next token.",
        "把同一段文本再跑一遍，但关掉一个头，或某一层的整个注意力或 MLP，比较模型对每个下一个词元的预测有多好。",
    ),
    "forward_pass.ko.m.loss": ("Next-token loss, {what} out", "下一词元损失（敲除 {what}）"),
    "forward_pass.ko.m.loss.help": (
        "Mean −log p(actual next token) in nats over the text's {n} predictions, plain → knocked out.",
        "文本中 {n} 个预测上 −log p(实际下一个词元) 的平均值（奈特），原始 → 敲除后。",
    ),
    "forward_pass.ko.m.p": ("p(“{token}”) after position {pos}", "位置 {pos} 之后 p(“{token}”)"),
    "forward_pass.ko.m.p.help": (
        "The probability (τ = 1) of the token the plain run ranks first after the chosen position, plain → knocked "
        "out.",
        "原始运行在所选位置之后排第一的词元的概率（τ = 1），原始 → 敲除后。",
    ),
    "forward_pass.ko.m.top": ("Top token after position {pos}, knocked out", "敲除后位置 {pos} 之后的首选词元"),
    "forward_pass.ko.loss": ("loss (nats)", "损失（奈特）"),
    "forward_pass.ko.read": (
        "Each pair of bars is one prediction, labelled by the token it should predict. Grey: the plain run; red: the "
        "part knocked out. Where red stands above grey, that prediction needed the part.",
        "每对柱子是一次预测，标签是它应当预测的词元。灰色：原始运行；红色：敲除该部分后。红色高于灰色的地方，"
        "说明这次预测需要这一部分。",
    ),
    "forward_pass.ko.read.ours": (
        "On the default text, zeroing our model's first MLP (layer 0) more than doubles the loss, while no single "
        "head moves it by more than half a nat: the first MLP works almost as part of the embedding.",
        "在默认文本上，把我们模型的第一个 MLP（层 0）置零会让损失增加一倍以上，而任何单个头的影响都不超过半个奈特："
        "第一个 MLP 几乎就像嵌入的一部分。",
    ),
    "forward_pass.error.ko_short": (
        "The text needs at least two tokens to compare a next-token prediction.",
        "文本至少需要两个词元，才能比较下一词元的预测。",
    ),
}
