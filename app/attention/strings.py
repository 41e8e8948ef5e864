"""Strings of the Attention page (Attention Is All You Need, arXiv 1706.03762)."""

STRINGS = {
    "attention.intro": (
        "Before 2017, sequence-to-sequence models read their input one step at a time with a recurrent network. "
        "The Transformer drops recurrence: every token looks at every other token through **attention**, in "
        "parallel — the encoder over the input, the decoder over what it has written so far (masked, so it cannot "
        "peek ahead) and over the encoder's output (**cross-attention**). Order comes only from the **sinusoidal "
        "positions** added to the embeddings. The model here is that encoder–decoder (2 + 2 layers, 4 heads, "
        "d_model = 64, post-LayerNorm, ReLU feed-forward), trained by us to **reverse** a string of letters.",
        "2017 年以前，序列到序列模型用循环神经网络逐步读取输入。Transformer 去掉了循环：每个词元都通过**注意力**并行地"
        "查看其他所有词元——编码器在输入上做自注意力，解码器在自己已写出的内容上做自注意力（带掩码，不能偷看后面），"
        "并通过**交叉注意力**查看编码器的输出。顺序信息只来自加在嵌入上的**正弦位置编码**。"
        "这里的模型就是这种编码器–解码器（编码器、解码器各 2 层，4 个头，d_model = 64，后置 LayerNorm，"
        "ReLU 前馈层），由我们训练来**反转**字符串。",
    ),
    "attention.input": ("Input (letters a–z and spaces)", "输入（字母 a–z 和空格）"),
    "attention.input.help": (
        "Uppercase letters are read as lowercase. Trained on 1–16 characters; up to 20 are accepted.",
        "大写字母按小写处理。训练长度为 1–16 个字符，最多接受 20 个。",
    ),
    "attention.examples": ("Or pick an example", "或选择一个示例"),
    "attention.step": ("Decoding step", "解码步"),
    "attention.step.help": (
        "Step t: the decoder has read <bos> and its first t outputs, and predicts output t.",
        "第 t 步：解码器已读入 <bos> 和前 t 个输出，正在预测第 t 个输出。",
    ),
    "attention.m.output": ("Model output", "模型输出"),
    "attention.m.correct": ("Correct reversal?", "反转正确？"),
    "attention.yes": ("yes", "是"),
    "attention.no": ("no", "否"),
    "attention.m.expected": ("Correct answer (the input reversed)", "正确答案（输入反转）"),
    "attention.m.predicts": ("Step {step} predicts", "第 {step} 步预测"),
    "attention.m.looks_at": (
        "Cross-attention peak (layer {layer}, head {head})",
        "交叉注意力峰值（第 {layer} 层，第 {head} 头）",
    ),
    "attention.m.weight": ("Peak weight", "峰值权重"),
    "attention.m.agreement": (
        "Alignment agreement (layer {layer}, head {head})",
        "对齐一致率（第 {layer} 层，第 {head} 头）",
    ),
    "attention.m.agreement.help": (
        "Share of output letters whose cross-attention peak is the source letter they copy (output i ← input n−1−i).",
        "交叉注意力峰值恰好落在被复制的源字母上的输出字母比例（输出 i ← 输入 n−1−i）。",
    ),
    "attention.progress": ("Decoder input so far → prediction", "目前的解码器输入 → 预测"),
    "attention.looking": (
        "Where the decoder looks at this step (cross-attention, layer {layer}, average of the heads)",
        "这一步解码器关注的位置（交叉注意力，第 {layer} 层，各头平均）",
    ),
    "attention.kind": ("Attention", "注意力类型"),
    "attention.kind.enc_self": ("encoder self-attention", "编码器自注意力"),
    "attention.kind.dec_self": ("decoder masked self-attention", "解码器掩码自注意力"),
    "attention.kind.cross": ("cross-attention", "交叉注意力"),
    "attention.layer": ("Layer", "层"),
    "attention.head": ("Head", "头"),
    "attention.heads": ("Heads in the head view", "头视图中显示的头"),
    "attention.view": ("View", "视图"),
    "attention.view.heads": ("head view", "头视图"),
    "attention.view.model": ("model view", "模型视图"),
    "attention.view.dot": ("scaled dot-product", "缩放点积"),
    "attention.view.mask": ("causal mask", "因果掩码"),
    "attention.view.positions": ("positions", "位置编码"),
    # head view
    "attention.heads.caption": (
        "Lines join each query (left) to the keys (right) it attends to; darker = more weight, one colour per head. "
        "The highlighted query is the current step.",
        "连线把每个查询（左）与它关注的键（右）连起来；颜色越深权重越大，每个头一种颜色。高亮的查询是当前这一步。",
    ),
    "attention.heads.none": ("Pick at least one head.", "请至少选择一个头。"),
    # model view
    "attention.model.caption": (
        "Every layer × head of the chosen attention at this step. Click a map to enlarge it (or pick the layer "
        "and head above).",
        "当前步所选注意力类型的所有层 × 头。点击一个小图即可放大（也可在上方选择层和头）。",
    ),
    "attention.model.enlarged": ("Layer {layer}, head {head}", "第 {layer} 层，第 {head} 头"),
    # scaled dot-product
    "attention.dot.caption": (
        "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V, for one query: {query}, {kind}, layer {layer}, head {head}, "
        "with this model's real numbers (d_k = {d_k}).",
        "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V，针对一个查询：{query}，{kind}，第 {layer} 层，第 {head} 头，"
        "使用该模型的真实数值（d_k = {d_k}）。",
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
        "on what was already written. Right: decoder self-attention of layer {layer}, head {head}, up to this step "
        "— every weight above the diagonal is exactly 0.",
        "左：解码器的因果掩码（1 = 可关注）。查询 t 只能看到键 0…t，因此第 t 个输出只能依赖已写出的内容。"
        "右：第 {layer} 层第 {head} 头的解码器自注意力（截至当前步）——对角线以上的权重全部为 0。",
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
    # explanation
    "attention.explain": (
        "**What to look at.** The task is reversal, so output letter i copies input letter n−1−i: in the "
        "cross-attention of the last layer a good head draws the **anti-diagonal**, and the metric *alignment "
        "agreement* counts how often its peak lands on exactly that letter. Nothing told the model to attend "
        "this way; it learned it from input–output pairs alone.\n\n"
        "**What to try.** Type a word with distinct letters such as `abcdefgh` and step through: the peak walks "
        "backwards along the input. Try letters that repeat (`banana`): a head that attends by position still "
        "finds the right copy. Try 17–20 characters, longer than anything in training: the sinusoidal table is "
        "defined at every position, and since we started each training batch at a random row of it, the model "
        "had to find letters by *relative* position — it reverses some of these exactly and slips on others "
        "(numbers on the model card below). In the scaled dot-product view, switch on *no ÷√d_k* to see the "
        "softmax saturate.\n\n"
        "Paper: Vaswani et al., *Attention Is All You Need*, 2017, "
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762) — sections 3.2 (attention), 3.5 (positions).",
        "**看什么。** 任务是反转，所以第 i 个输出字母复制第 n−1−i 个输入字母：在最后一层的交叉注意力中，好的头会画出"
        "一条**反对角线**，指标“对齐一致率”统计峰值恰好落在该字母上的比例。没有人告诉模型要这样关注，它只从输入–输出对中"
        "学会了这一点。\n\n"
        "**试一试。** 输入字母互不相同的词，例如 `abcdefgh`，然后逐步前进：峰值沿输入向后移动。试试有重复字母的 "
        "`banana`：按位置关注的头依然能找到正确的那一个。试试 17–20 个字符（比训练时都长）："
        "正弦位置表对任意位置都有定义；训练时我们让每个批次从表中随机的一行开始，迫使模型按*相对*位置寻找字母——"
        "因此它能把其中一部分完全反转正确，另一部分会出错（数字见下方的模型卡）。"
        "在缩放点积视图中打开“不除以 √d_k”，观察 softmax 饱和。\n\n"
        "论文：Vaswani 等，*Attention Is All You Need*，2017，"
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)——第 3.2 节（注意力）、第 3.5 节（位置编码）。",
    ),
    "attention.card": (
        "Model card (held-out strings): exact match {em:.1%} at the training lengths 1–16, {em_long:.1%} at the "
        "unseen lengths 17–20; cross-attention peak on the copied letter {align:.1%} of the time (best head of the "
        "last layer, head {head}), {align_avg:.1%} with the heads averaged. {params:,} parameters.",
        "模型卡（留出的字符串）：训练长度 1–16 上完全匹配率 {em:.1%}，未见过的长度 17–20 上为 {em_long:.1%}；"
        "交叉注意力峰值落在被复制字母上的比例为 {align:.1%}（最后一层最佳的头，第 {head} 头），各头平均时为 "
        "{align_avg:.1%}。共 {params:,} 个参数。",
    ),
    # errors
    "attention.error.empty": ("Type at least one letter.", "请至少输入一个字母。"),
    "attention.error.too_long": (
        "The input has {n} characters; the model takes at most {max} (it was trained on up to {trained}).",
        "输入有 {n} 个字符；模型最多接受 {max} 个（训练时最多 {trained} 个）。",
    ),
    "attention.error.unknown": (
        "The model only knows the letters a–z and the space. Not understood: {symbols}",
        "模型只认识字母 a–z 和空格。无法识别：{symbols}",
    ),
}
