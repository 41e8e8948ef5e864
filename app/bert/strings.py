"""Strings of the BERT page (Devlin et al. 2018, 1810.04805)."""

STRINGS = {
    "bert.intro": (
        "A small BERT — an encoder that reads the whole sentence in both directions — pre-trained here on "
        "Shakespeare's plays to fill in hidden tokens and to tell whether sentence B follows sentence A. "
        "Click word pieces to hide them (or type [MASK]) and see what the model guesses for each.",
        "一个小型 BERT——双向读取整句话的编码器——在这里用莎士比亚的剧本预训练：补全被遮住的词元，并判断句子 B 是否紧接在"
        "句子 A 之后。点击词片把它遮住（或直接输入 [MASK]），看看模型对每个位置的猜测。",
    ),
    "bert.a": ("Sentence A", "句子 A"),
    "bert.a.help": (
        "Up to 200 characters. Write [MASK] to hide a token yourself. The vocabulary is lower-cased Shakespearean "
        "English: other scripts become [UNK].",
        "最多 200 个字符。可以直接写 [MASK] 来遮住一个词元。词表是小写的莎士比亚英语，其他文字会变成 [UNK]。",
    ),
    "bert.b": ("Sentence B (optional)", "句子 B（可选）"),
    "bert.b.help": (
        "The second segment of the pair, read with segment embedding B. Leave empty for a single sentence.",
        "句子对的第二段，使用 B 段的段嵌入。留空则只输入一个句子。",
    ),
    "bert.masks": ("Click tokens to mask them", "点击词元将其遮住"),
    "bert.masks.help": (
        "Each selected word piece is replaced by [MASK] before the model reads the pair; the choice is kept in the "
        "page's URL.",
        "被选中的词片在模型读入之前会被替换为 [MASK]；所选位置会保存在页面网址中。",
    ),
    "bert.k": ("Predictions shown per masked position (k)", "每个遮住位置显示的预测数（k）"),
    "bert.m.tokens": ("Tokens", "词元数"),
    "bert.m.tokens.help": (
        "WordPiece tokens including [CLS] and the [SEP] after each sentence (at most 64).",
        "WordPiece 词元数，包括 [CLS] 和每个句子后的 [SEP]（最多 64 个）。",
    ),
    "bert.m.masked": ("Masked positions", "遮住的位置"),
    "bert.m.top": ("Best guess, first mask", "第一个遮住位置的最佳猜测"),
    "bert.m.top.help": (
        "The most probable token at the first masked position, read with the words on both sides of it.",
        "第一个遮住位置上概率最高的词元——模型同时利用了它左右两边的词。",
    ),
    "bert.m.is_next": ("P(IsNext)", "P(IsNext)"),
    "bert.m.is_next.help": (
        "The next-sentence head on [CLS]: how sure the model is that B really followed A (with the masks applied).",
        "[CLS] 上的下一句预测头：模型认为 B 确实紧跟在 A 之后的概率（在当前遮盖下）。",
    ),
    "bert.pred.title": ("What the model fills in", "模型补全的内容"),
    "bert.pred.strip": ("What the model reads (red = [MASK])", "模型读到的序列（红色 = [MASK]）"),
    "bert.pred.none": (
        "Nothing is masked: click a token above, or write [MASK] in a sentence.",
        "目前没有遮住任何位置：点击上面的某个词元，或在句子里写 [MASK]。",
    ),
    "bert.pred.caption": (
        "Green bar: the token that was really there. Pieces starting with ## continue a word.",
        "绿色柱表示原来真正在那里的词元。以 ## 开头的词片是接在前一个词片后面的词的一部分。",
    ),
    "bert.probability": ("probability", "概率"),
    "bert.col.pos": ("position", "位置"),
    "bert.col.original": ("token", "词元"),
    "bert.col.rank": ("rank", "排名"),
    "bert.col.prediction": ("prediction", "预测"),
    "bert.col.prob": ("probability", "概率"),
    "bert.col.action": ("what the recipe did", "掩码规则的处理"),
    "bert.col.input": ("model reads", "模型读到"),
    "bert.col.label": ("loss compares with", "损失的目标"),
    "bert.view": ("View", "视图"),
    "bert.view.example": ("How a training example is made", "训练样本是怎样构造的"),
    "bert.view.nsp": ("Next sentence", "下一句预测"),
    "bert.view.embeddings": ("Three embeddings", "三种嵌入"),
    "bert.view.attention": ("Bidirectional attention", "双向注意力"),
    "bert.ex.caption": (
        "Pre-training corrupts your text exactly as in the paper: every token (not [CLS]/[SEP]) is chosen with "
        "probability 15%; a chosen token becomes [MASK] 80% of the time, a random token 10%, and stays unchanged "
        "10%. The loss only looks at the chosen positions. Change the seed to draw again.",
        "预训练完全按论文的方式破坏你的文本：每个词元（[CLS]/[SEP] 除外）以 15% 的概率被选中；被选中的词元 80% 替换为 "
        "[MASK]，10% 替换为随机词元，10% 保持不变。损失只计算被选中的位置。换一个随机种子即可重新抽取。",
    ),
    "bert.seed": ("Seed", "随机种子"),
    "bert.seed.help": ("The same seed always draws the same example.", "相同的种子总是抽出相同的样本。"),
    "bert.ex.m.chosen": ("Chosen (of all tokens)", "被选中的（占全部词元）"),
    "bert.ex.m.chosen.help": (
        "About 15% on average; a short text often gets none or two, so try a few seeds.",
        "平均约为 15%；短文本常常一个也没选中，或选中两个，多试几个种子。",
    ),
    "bert.ex.m.mask": ("→ [MASK]", "→ [MASK]"),
    "bert.ex.m.random": ("→ random token", "→ 随机词元"),
    "bert.ex.m.keep": ("→ unchanged", "→ 保持不变"),
    "bert.ex.original": ("Your text", "你的文本"),
    "bert.ex.inputs": ("What the model reads", "模型读到的输入"),
    "bert.ex.labels": ("What the loss compares with (· = ignored)", "损失比较的目标（· = 不计入）"),
    "bert.ex.legend": ("Colours", "颜色"),
    "bert.action.none": ("not chosen", "未选中"),
    "bert.action.mask": ("[MASK]", "[MASK]"),
    "bert.action.random": ("random token", "随机词元"),
    "bert.action.keep": ("unchanged", "保持不变"),
    "bert.nsp.caption": (
        "The second pre-training task: half of the pairs are a span and the span that follows it in the play "
        "(IsNext), half a span and a span from another play (NotNext). A classifier on the [CLS] position learns "
        "to tell them apart.",
        "第二个预训练任务：一半的句子对是剧本中的一段及其紧接的下一段（IsNext），另一半是一段加上来自另一部剧的一段"
        "（NotNext）。[CLS] 位置上的分类器学习区分这两种情况。",
    ),
    "bert.nsp.need_b": ("Type a sentence B to ask whether it follows A.", "输入句子 B，看看它是否接在 A 之后。"),
    "bert.nsp.m.ab": ("P(IsNext) for A then B", "先 A 后 B 的 P(IsNext)"),
    "bert.nsp.m.ab.help": ("Nothing masked.", "不遮任何位置。"),
    "bert.nsp.m.ba": ("P(IsNext) for B then A", "先 B 后 A 的 P(IsNext)"),
    "bert.nsp.m.ba.help": (
        "The same two sentences in the other order: a model that reads order should be less sure.",
        "同样两句话，顺序对调：能读懂顺序的模型应该没那么确定。",
    ),
    "bert.nsp.segments": ("Segments (blue = A, orange = B)", "段落（蓝色 = A，橙色 = B）"),
    "bert.nsp.try": (
        "Try: a line and the next line of a play, then replace B with a line from another play.",
        "试一试：先用剧本中的一行和它的下一行，再把 B 换成另一部剧里的一行。",
    ),
    "bert.emb.caption": (
        "The model's input is the sum of three learned vectors per position: the token's embedding, the segment's "
        "(A or B) and the position's; a LayerNorm follows. Rows are tokens (masked ones read as [MASK]), columns the "
        "128 dimensions.",
        "模型的输入是每个位置上三个可学习向量之和：词元嵌入、段嵌入（A 或 B）和位置嵌入；之后再经过一个 LayerNorm。"
        "每一行是一个词元（被遮住的读作 [MASK]），每一列是 128 个维度之一。",
    ),
    "bert.emb.token": ("token", "词元"),
    "bert.emb.segment": ("segment", "段"),
    "bert.emb.position": ("position", "位置"),
    "bert.emb.sum": ("sum", "总和"),
    "bert.emb.m.norm": ("Mean length: {name}", "平均长度：{name}"),
    "bert.emb.dim": ("dimension", "维度"),
    "bert.emb.value": ("value", "数值"),
    "bert.att.m.later": ("Attention to later tokens (this head)", "对后面词元的注意力（此头）"),
    "bert.att.m.later.help": (
        "Share of each query's attention that goes to keys to its right, averaged over queries. A decoder's causal "
        "mask makes this exactly 0.",
        "每个查询分配给其右侧键的注意力比例，对所有查询取平均。解码器的因果掩码让这个值恒为 0。",
    ),
    "bert.att.m.later_all": ("Same, all layers and heads", "同上，所有层和头"),
    "bert.att.caption": (
        "Left: where one head of BERT looks (rows are queries). Right: what a decoder such as GPT is allowed to "
        "look at — the causal mask hides everything to the right of the diagonal.",
        "左：BERT 的一个注意力头看向哪里（每行是一个查询）。右：像 GPT 这样的解码器被允许看的范围——因果掩码遮住了对角线"
        "右侧的一切。",
    ),
    "bert.att.title": ("BERT, layer {layer}, head {head}", "BERT，第 {layer} 层，第 {head} 个头"),
    "bert.att.causal": ("A decoder's causal mask", "解码器的因果掩码"),
    "bert.att.allowed": ("allowed", "允许"),
    "bert.att.grid": ("Every layer (rows) and head (columns).", "所有层（行）和头（列）。"),
    "bert.explain": (
        "**Why masking.** A language model that predicts the next word can only look left: if it also saw the "
        "right, the answer would be in its input. BERT ([arXiv:1810.04805](https://arxiv.org/abs/1810.04805)) "
        "hides 15% of the tokens and predicts those instead, so every layer may attend in both directions — the "
        "attention view shows weight on both sides of the diagonal, where a decoder has none.\n\n"
        "**Why 80/10/10.** [MASK] never appears when the model is later used on real text. Replacing some chosen "
        "tokens by a random token, and leaving some unchanged, means the model cannot trust any input token "
        "blindly and must keep a good representation of every position, not only the masked ones.\n\n"
        "**What you see.** Top-k guesses per hidden position, from a model of about a million parameters trained "
        "for under an hour on one CPU core; {card}\n\n"
        "**Try:** mask the same word in two sentences that differ only after it; mask two neighbours at once; "
        "swap A and B in the next-sentence view.",
        "**为什么要遮盖。** 预测下一个词的语言模型只能往左看：如果它也能看到右边，答案就在它的输入里了。"
        "BERT（[arXiv:1810.04805](https://arxiv.org/abs/1810.04805)）把 15% 的词元遮住，改为预测它们，"
        "于是每一层都可以双向注意——在注意力视图中，对角线两侧都有权重，而解码器的右侧全为零。\n\n"
        "**为什么是 80/10/10。** 之后在真实文本上使用模型时，[MASK] 永远不会出现。把一部分被选中的词元换成随机词元、"
        "一部分保持不变，模型就不能盲目相信任何一个输入词元，必须为每个位置（而不只是被遮住的位置）都保持良好的表示。\n\n"
        "**你看到的是什么。** 每个被遮住位置的前 k 个猜测，来自一个约一百万参数、"
        "在一个 CPU 核上用莎士比亚文本训练了不到一小时的模型；{card}\n\n"
        "**试一试：** 在两个只在该词之后不同的句子里遮住同一个词；同时遮住两个相邻的词；"
        "在下一句预测视图中交换 A 和 B。",
    ),
    "bert.card": (
        "on held-out plays it ranks the hidden token first {top1:.0%} of the time and in its top 5 {top5:.0%} of "
        "the time (always guessing the most frequent token: {unigram:.0%}), and tells a true next span from a "
        "random one {nsp:.0%} of the time.",
        "在未参与训练的剧本上，它把被遮住的词元排在第一位的比例为 {top1:.0%}，排进前 5 的比例为 {top5:.0%}"
        "（总是猜最常见的词元：{unigram:.0%}），区分真正的下一段与随机一段的准确率为 {nsp:.0%}。",
    ),
    "bert.error.empty": ("Type a sentence A.", "请输入句子 A。"),
    "bert.error.too_long_chars": (
        "Sentence {which} has {n} characters; at most {max} are allowed.",
        "句子 {which} 有 {n} 个字符；最多允许 {max} 个。",
    ),
    "bert.error.too_long_tokens": (
        "The pair has {n} tokens with [CLS] and [SEP]; this model reads at most {max}. Shorten a sentence.",
        "加上 [CLS] 和 [SEP]，这对句子共有 {n} 个词元；模型最多读 {max} 个。请缩短句子。",
    ),
    "bert.error.nothing_left": (
        "Sentence {which} has no readable characters (only spaces or control characters).",
        "句子 {which} 中没有可读的字符（只有空白或控制字符）。",
    ),
    "bert.error.unknown": (
        "Every token of sentence {which} is [UNK]: the vocabulary was learnt from Shakespeare's English only.",
        "句子 {which} 的每个词元都是 [UNK]：词表只从莎士比亚的英语中学得。",
    ),
    "bert.error.all_masked": (
        "Everything is masked, so there is no context left to predict from. Unmask at least one token.",
        "所有词元都被遮住了，没有可以依据的上下文。请至少保留一个未遮住的词元。",
    ),
    "bert.error.position": ("Position {pos} cannot be masked.", "位置 {pos} 不能被遮住。"),
    "bert.error.k": ("k must be between 1 and {max}.", "k 必须在 1 到 {max} 之间。"),
}
