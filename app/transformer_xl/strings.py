"""English and 简体中文 text of the Transformer-XL page."""

STRINGS = {
    "txl.intro": (
        "A vanilla Transformer language model reads text in fixed segments: the first tokens of each segment are "
        "predicted with almost nothing before them (context fragmentation). Transformer-XL keeps the hidden states of "
        "the previous segment as a **memory** that every layer attends to (with no gradient through it), and replaces "
        "absolute positions with **relative** ones so that the memory and the segment can be told apart. Below, a "
        "small model trained here with segments of L = 64 tokens and a memory of M = 64 runs on your text.",
        "普通（vanilla）Transformer 语言模型按固定长度的片段读文本："
        "每个片段开头的词元几乎没有上文可用（上下文碎片化）。"
        "Transformer-XL 把上一个片段的隐藏状态保留为**记忆**，每一层都可以关注它（梯度不传入记忆），"
        "并用**相对**位置编码取代绝对位置，使记忆与当前片段能够区分开。下面是一个在本站训练的小模型"
        "（片段长度 L = 64 个词元，记忆长度 M = 64），在你的文本上运行。",
    ),
    "txl.try.do": (
        "In section 2, compare the two cells under the first tokens after each segment boundary (the vertical bars).",
        "在第 2 部分，比较每条片段分界线（竖线）之后前几个词元下方的两个色块。",
    ),
    "txl.try.see": (
        "With the memory cleared (top cell) those tokens are much darker, i.e. worse predicted, than with memory "
        "(bottom cell); later in a segment the two rows look alike.",
        "记忆被清空时（上方色块）这些词元颜色明显更深，即预测得更差；有记忆时（下方色块）则浅得多。"
        "到了片段后部，两行看起来差不多。",
    ),
    "txl.try.why": (
        "A segment's first tokens have no context of their own; only the memory of the previous segment gives them "
        "one.",
        "片段开头的词元在本片段内没有上文，只有上一片段的记忆能为它们提供上下文。",
    ),
    "txl.text": ("Text", "文本"),
    "txl.text.help": (
        "At most {chars} characters and {tokens} tokens; it is cut into segments of L = {L} tokens.",
        "最多 {chars} 个字符、{tokens} 个词元；文本会被切成每段 L = {L} 个词元的片段。",
    ),
    # knock-outs on held-out text (app/transformer_xl/knockout.py)
    "txl.ko.title": ("7 · Knock out a part, or the memory", "7 · 敲除一部分，或切断记忆"),
    "txl.ko.caption": (
        "Held-out windows of {n} segments of L = {L} tokens (plays the model never trained on), run segment after "
        "segment with the memory of M = {M} carried, with one part switched off. Cutting a block's memory masks its "
        "memory keys: that block attends to its own segment only.",
        "留出文本（模型从未训练过的剧本）的窗口，每个含 {n} 个 L = {L} 词元的片段，逐段运行并携带 M = {M} 的记忆，"
        "同时关掉一部分。切断某块的记忆就是屏蔽它的记忆键：该块只关注自己的片段。",
    ),
    "txl.ko.part.memory": ("block's memory", "该块的记忆"),
    "txl.ko.part.memory_all": ("every block's memory", "所有块的记忆"),
    "txl.ko.what.memory": ("memory of block {layer} cut", "切断块 {layer} 的记忆"),
    "txl.ko.what.memory_all": ("every block's memory cut", "切断所有块的记忆"),
    "txl.ko.segment": ("segment", "片段"),
    "txl.ko.read": (
        "The first segment has no memory either way. Measured: cutting every block's memory costs about +0.09 bits "
        "per character, about +0.2 nats on each later segment; one block's memory alone +0.02 at most, the other "
        "blocks still carry the past. The MLPs of the first and last blocks cost the most (+0.55 and +0.63), any "
        "single head at most about +0.12.",
        "第一个片段无论如何都没有记忆。测得：切断所有块的记忆，每字符比特约 +0.09，之后每个片段约 +0.2 奈特；"
        "只切断一个块的记忆最多 +0.02，其余块仍在传递过去的信息。第一块和最后一块的 MLP 代价最大（+0.55 和 +0.63），"
        "任一单个头最多约 +0.12。",
    ),
    "txl.error.knock_part": ("Choose a part to knock out and how.", "请选择要敲除的部分和方式。"),
    "txl.error.knock_index": (
        "The model has {layers} layers and {heads} heads, counted from 0.",
        "该模型有 {layers} 层、{heads} 个头，从 0 开始编号。",
    ),
    "txl.error.empty": ("Enter some text.", "请输入一些文本。"),
    "txl.error.chars": (
        "The text has {n} characters; at most {max} are allowed.",
        "文本有 {n} 个字符，最多允许 {max} 个。",
    ),
    "txl.error.tokens": (
        "The text is {n} tokens long; at most {max} are allowed.",
        "文本有 {n} 个词元，最多允许 {max} 个。",
    ),
    "txl.memory": ("memory", "记忆"),
    "txl.current": ("current segment", "当前片段"),
    # 1 · segments and memory
    "txl.seg.title": ("1 · Segments and the memory", "1 · 片段与记忆"),
    "txl.seg.caption": (
        "Your text ({T} tokens) cut into {n} segments of L = {L}. The model runs them one after another; each layer "
        "keeps the last M = {M} of its input states, and the next segment's queries attend to those (the memory) "
        "and to their own segment up to themselves.",
        "你的文本（{T} 个词元）被切成 {n} 个长度为 L = {L} 的片段，模型依次处理。每一层保留其输入状态中最后的 "
        "M = {M} 个，下一个片段的查询既关注这些状态（记忆），也关注本片段中直到自己为止的词元。",
    ),
    "txl.segment": ("Segment", "片段"),
    "txl.segment.short": ("seg.", "片段"),
    "txl.query": ("Query in the segment", "片段中的查询"),
    "txl.query.bar": ("query", "查询"),
    "txl.seg.legend": (
        "Blue: the chosen segment; yellow: the memory it reads; grey: the rest. The query is the red bar below.",
        "蓝色：所选片段；黄色：它读取的记忆；灰色：其余部分。查询是下图中的红色条。",
    ),
    "txl.m.on_memory_layer": ("Weight on the memory, {layer}, all heads", "放在记忆上的权重：{layer}，所有头"),
    "txl.m.on_memory_layer.help": (
        "Averaged over every query of the segment and every head of the layer.",
        "对该片段的所有查询和该层的所有头取平均。",
    ),
    "txl.seg.bars": (
        "Attention of each query of the segment, {lh}, over its keys: drag the slider under the figure to pick the "
        "query (0 = the segment's first token).",
        "片段中每个查询在 {lh} 中对各个键的注意力：拖动图下方的滑块选择查询（0 表示片段的第一个词元）。",
    ),
    "txl.seg.readout": (
        "“{token}” (position {p}) · keys {n} + {k} · on the memory {on}",
        "“{token}”（位置 {p}）· 键 {n} + {k} · 记忆上 {on}",
    ),
    "txl.seg.readout.help": (
        "Keys: how many keys this query sees, up to M = {M} memory states, then its own segment up to itself (early "
        "queries have the least context of their own). On the memory: the share of this head's attention from this "
        "query that lands on memory keys.",
        "键：该查询能看到的键数，最多 M = {M} 个记忆状态，再加上本片段中直到它自己的词元（越靠前的查询，本片段内"
        "的上文越少）。记忆上：该头中这个查询的注意力落在记忆键上的比例。",
    ),
    # 2 · loss
    "txl.loss.title": ("2 · Loss with and without the memory", "2 · 有记忆与无记忆时的损失"),
    "txl.loss.caption": (
        "The same weights run twice over your text: carrying the memory from segment to segment, and with it "
        "cleared before every segment (a plain model of context L = {L}). Under each predicted token, the top cell is "
        "its loss with the memory cleared, the bottom one with memory (darker = higher loss); a vertical bar marks the "
        "start of a segment. The first {first} tokens of each segment gain the most.",
        "同一组权重在你的文本上运行两次：一次把记忆从一个片段带到下一个片段，一次在每个片段之前清空记忆"
        "（相当于上下文为 L = {L} 的普通模型）。每个被预测的词元下方，上面的色块是清空记忆时的损失，"
        "下面的是有记忆时的损失（颜色越深损失越高）；竖线标出片段的开始。每个片段的前 {first} 个词元获益最多。",
    ),
    "txl.m.bpc_memory": ("Bits per character, with memory", "每字符比特数（有记忆）"),
    "txl.m.bpc_cleared": ("Bits per character, memory cleared", "每字符比特数（清空记忆）"),
    "txl.m.bpc_cleared.help": (
        "The difference to the run with memory is shown below the number.",
        "数字下方显示与有记忆时的差值。",
    ),
    "txl.m.gain_first": ("Gain on the first {first} tokens", "前 {first} 个词元上的收益"),
    "txl.m.gain_first.help": (
        "Bits per character without memory minus with memory, on the first {first} predicted tokens of every "
        "segment (the first segment has no memory either way). On the other tokens: {later}.",
        "在每个片段的前 {first} 个被预测词元上，无记忆时减去有记忆时的每字符比特数（第一个片段两种情况都没有记忆）。"
        "其余词元上为 {later}。",
    ),
    "txl.with": ("with memory", "有记忆"),
    "txl.cleared": ("memory cleared", "清空记忆"),
    "txl.nats": ("nats", "奈特"),
    "txl.place": ("place in the segment (0 = first token)", "在片段中的位置（0 = 第一个词元）"),
    "txl.loss.cells": (
        "Under each predicted token: top cell, loss with the memory cleared; bottom cell, with memory. "
        "Hover for the numbers.",
        "每个被预测词元下方：上面的色块是清空记忆时的损失，下面的是有记忆时的损失。鼠标悬停可查看数值。",
    ),
    "txl.loss.places": (
        "Mean loss at each place of a segment, over the {n} segments after the first (the first has no memory "
        "either way).",
        "片段中每个位置上的平均损失，取第一个片段之后的 {n} 个片段（第一个片段两种情况下都没有记忆）。",
    ),
    "txl.loss_nats": ("loss (nats)", "损失（奈特）"),
    # 3 · reach
    "txl.reach.title": ("3 · The context grows with depth", "3 · 上下文随深度增长"),
    "txl.reach.caption": (
        "One layer reaches at most M + L − 1 = {direct} tokens back. But layer n's memory holds layer n − 1's states "
        "of the previous segment, which had read their own memory: the reach grows by M per layer, up to "
        "N × M + L − 1 = {top} for N = {N} layers (the paper: O(N × L)). Measured here on the real attention maps: "
        "an edge counts when some head puts at least the threshold on it; following edges back through the layers and "
        "the memories gives the earliest input each position depends on.",
        "单独一层最多能回看 M + L − 1 = {direct} 个词元。但第 n 层的记忆保存的是第 n − 1 层在上一个片段的状态，"
        "而这些状态当时又读取过它们自己的记忆：每多一层，可达范围增加 M，N = {N} 层时最多为 "
        "N × M + L − 1 = {top}（论文中为 O(N × L)）。这里在真实的注意力图上测量：某个头在一条边上的权重"
        "不低于阈值时算作连通；沿着这些边穿过各层和记忆向前追溯，得到每个位置所依赖的最早输入。",
    ),
    "txl.threshold": ("Counts as attended from a weight of", "权重达到多少算作关注"),
    "txl.threshold.help": (
        "Softmax weights are never exactly zero; a higher threshold keeps only the edges a head really uses.",
        "softmax 权重从不恰好为零；阈值越高，只保留头真正使用的边。",
    ),
    "txl.m.reach": ("Reach after {layer}", "{layer} 之后的可达范围"),
    "txl.m.reach.help": (
        "Measured reach / bound ({n} × M + L − 1 with M = {M}, L = {L}: {bound}). The largest offset this "
        "layer's attention alone reaches: {direct}.",
        "测得的可达范围 / 上界（{n} × M + L − 1，M = {M}，L = {L}：{bound}）。"
        "仅这一层的注意力能达到的最大偏移：{direct}。",
    ),
    "txl.reach.direct": ("one layer's attention", "单层注意力"),
    "txl.reach.chained": ("through the stack", "穿过整个堆叠"),
    "txl.reach.bound": ("bound (n + 1) × M + L − 1 after layer n", "层 n 之后的上界 (n + 1) × M + L − 1"),
    "txl.reach.offset": ("tokens back", "回看的词元数"),
    "txl.reach.short": (
        "The text is {T} tokens long: the last layer can show its full reach only on {need} tokens or more.",
        "文本只有 {T} 个词元：最后一层要在至少 {need} 个词元上才能展示完整的可达范围。",
    ),
    # 4 · the four terms
    "txl.terms.title": ("4 · The four terms of a relative score", "4 · 相对注意力分数的四项"),
    "txl.terms.caption": (
        r"Transformer-XL writes the score of query $i$ on key $j$ as four terms (§3.3): "
        r"**(a)** $q_i^\top W_{k,E}\,x_j$, content against content; "
        r"**(b)** $q_i^\top W_{k,R}\,R_{i-j}$, the query's content against the distance; "
        r"**(c)** $u^\top W_{k,E}\,x_j$, a learned bias for some keys whatever the query; "
        r"**(d)** $v^\top W_{k,R}\,R_{i-j}$, a learned bias for some distances. "
        r"$R$ is a fixed sinusoid of the offset $i - j$; $u$ and $v$ are learned vectors shared by every query. "
        r"The bars (scores divided by $\sqrt{D}$) are for the query, layer and head chosen in section 1; their sum "
        r"goes into the softmax.",
        r"Transformer-XL 把查询 $i$ 对键 $j$ 的分数写成四项（§3.3）："
        r"**(a)** $q_i^\top W_{k,E}\,x_j$，内容对内容；"
        r"**(b)** $q_i^\top W_{k,R}\,R_{i-j}$，查询内容对距离；"
        r"**(c)** $u^\top W_{k,E}\,x_j$，与查询无关、偏向某些键的可学习偏置；"
        r"**(d)** $v^\top W_{k,R}\,R_{i-j}$，偏向某些距离的可学习偏置。"
        r"$R$ 是偏移 $i - j$ 的固定正弦编码，$u$ 和 $v$ 是所有查询共享的可学习向量。"
        r"柱状图（分数已除以 $\sqrt{D}$）对应第 1 部分所选的查询、层和头；四项之和送入 softmax。",
    ),
    "txl.term.a": ("(a) content–content", "(a) 内容–内容"),
    "txl.term.b": ("(b) content–position", "(b) 内容–位置"),
    "txl.term.c": ("(c) global content bias", "(c) 全局内容偏置"),
    "txl.term.d": ("(d) global position bias", "(d) 全局位置偏置"),
    "txl.term.total": ("sum", "总和"),
    "txl.terms.score": ("score / √D", "分数 / √D"),
    "txl.m.term.help": (
        "Above the bars: the four terms for the key the query attends to most, and its weight.",
        "条形上方：该查询最关注的键上的四项，以及它的权重。",
    ),
    "txl.terms.shown": (
        "Each query of the segment, {lh}: drag the slider under the figure to pick one.",
        "片段中的每个查询，{lh}：拖动图下方的滑块选择一个。",
    ),
    "txl.terms.readout": (
        "query “{token}” · top key “{top}” (weight {w})<br>(a) {a} · (b) {b} · (c) {c} · (d) {d}",
        "查询 “{token}” · 最关注的键 “{top}”（权重 {w}）<br>(a) {a} · (b) {b} · (c) {c} · (d) {d}",
    ),
    # 5 · absolute positions
    "txl.abs.title": ("5 · Why absolute positions break with memory", "5 · 为什么绝对位置与记忆不兼容"),
    "txl.abs.caption": (
        "A tiny example with segments of 4 tokens: the memory holds the previous segment, the query sits in the "
        "current one. With absolute positions each segment numbers its tokens 0 … 3 again, so a memory token and a "
        "current token with the same number get the same position vector; the model cannot tell which came first or "
        "how far away it is. A relative encoding uses the offset i − j, which is different for every key.",
        "一个片段长度为 4 的小例子：记忆保存上一个片段，查询位于当前片段。使用绝对位置时，每个片段都重新把词元"
        "编号为 0 … 3，于是编号相同的记忆词元和当前词元得到同一个位置向量，模型无法分辨谁在前、相距多远。"
        "相对位置编码使用偏移 i − j，对每个键都不同。",
    ),
    "txl.abs.query": ("Query: current segment, index", "查询：当前片段中的编号"),
    "txl.abs.key": ("key", "键"),
    "txl.abs.absolute": ("absolute position index", "绝对位置编号"),
    "txl.abs.offset": ("relative offset i − j", "相对偏移 i − j"),
    "txl.abs.result": (
        "The query (current segment · {q}) and the key memory · {q} share absolute index {q}: to an absolute "
        "encoding they are at the same place. Their relative offsets, 0 and {offset}, differ. Keys after the query "
        "(–) are masked.",
        "查询（当前片段 · {q}）与键（记忆 · {q}）的绝对编号都是 {q}：在绝对位置编码看来它们处于同一位置。"
        "它们的相对偏移分别为 0 和 {offset}，并不相同。查询之后的键（–）被掩码遮住。",
    ),
    # 6 · evaluation speed
    "txl.speed.title": ("6 · Evaluation speed", "6 · 评估速度"),
    "txl.speed.caption": (
        "Measured when the card was written, on {n} tokens of a validation play, batch 1, one CPU thread. "
        "Transformer-XL runs segments of L = {L} and reuses its memory, so each token is computed once. The vanilla "
        "evaluation (as in the fragmented baseline of Al-Rfou et al. 2018) recomputes a whole window of the same "
        "attention length for every token and keeps only its last prediction. Here the vanilla run uses the same "
        "network with the memory off.",
        "在写入模型卡时测得：验证剧本中的 {n} 个词元，批大小 1，单个 CPU 线程。Transformer-XL 以 L = {L} 的片段"
        "运行并复用记忆，每个词元只计算一次。普通 Transformer 的评估方式（如 Al-Rfou 等人 2018 年的碎片化基线）"
        "为每个词元重新计算同样注意力长度的整个窗口，只保留最后一个预测。"
        "这里的普通 Transformer 评估用同一个网络、关闭记忆来运行。",
    ),
    "txl.m.speedup": ("Speed-up at attention length {A}", "注意力长度 {A} 时的加速比"),
    "txl.m.speedup.help": (
        "Vanilla milliseconds per token ÷ Transformer-XL milliseconds per token, at the trained M + L.",
        "在训练时的 M + L 下，普通 Transformer 每词元毫秒数 ÷ Transformer-XL 每词元毫秒数。",
    ),
    "txl.m.speedup_max": ("Speed-up at attention length {A}", "注意力长度 {A} 时的加速比"),
    "txl.speed.xl": ("Transformer-XL (memory reused)", "Transformer-XL（复用记忆）"),
    "txl.speed.vanilla": ("vanilla (window recomputed per token)", "普通 Transformer（每个词元重算窗口）"),
    "txl.speed.attention": ("attention length (M + L)", "注意力长度（M + L）"),
    "txl.speed.ms": ("ms per predicted token (log scale)", "每个预测词元的毫秒数（对数坐标）"),
    "txl.speed.label": ("{s:.0f}× faster", "快 {s:.0f} 倍"),
    "txl.sweep.caption": (
        "Relative positions let the same weights read a longer or shorter memory than in training (M = {M}): the "
        "card's validation bits per character for each memory length at evaluation.",
        "相对位置编码让同一组权重可以读取比训练时（M = {M}）更长或更短的记忆：下图是模型卡中评估时各记忆长度"
        "对应的验证集每字符比特数。",
    ),
    "txl.sweep.memory": ("memory length M at evaluation", "评估时的记忆长度 M"),
    "txl.sweep.bpc": ("validation bits per character", "验证集每字符比特数"),
    "txl.sweep.trained": ("trained with M = {M}", "训练时 M = {M}"),
    # paper vs here
    "txl.pvh.size": ("model", "模型"),
    "txl.pvh.size.paper": (
        "enwik8: 24 layers, 277M parameters; WikiText-103: 257M parameters",
        "enwik8：24 层，2.77 亿参数；WikiText-103：2.57 亿参数",
    ),
    "txl.pvh.size.here": (
        "{N} layers, C = {C}, {H} heads, {p:.2f}M parameters",
        "{N} 层，C = {C}，{H} 个头，{p:.2f}M 参数",
    ),
    "txl.pvh.context": ("segment and memory", "片段与记忆"),
    "txl.pvh.context.paper": (
        "segment L and memory M per layer, no gradient into the memory",
        "每层片段长度 L 与记忆长度 M，梯度不传入记忆",
    ),
    "txl.pvh.context.here": ("L = {L}, M = {M}, the same", "L = {L}，M = {M}，做法相同"),
    "txl.pvh.data": ("data", "数据"),
    "txl.pvh.data.paper": (
        "WikiText-103, enwik8, text8, One Billion Word",
        "WikiText-103、enwik8、text8、One Billion Word",
    ),
    "txl.pvh.data.here": (
        "Shakespeare's training plays, byte-level BPE of 2,048 ids; three held-out plays",
        "莎士比亚的训练剧本，2,048 个 id 的字节级 BPE；三部留出剧本",
    ),
    "txl.pvh.result": ("results", "结果"),
    "txl.pvh.result.paper": (
        "WikiText-103 18.3 perplexity, enwik8 0.99 bpc, text8 1.08 bpc, One Billion Word 21.8 perplexity",
        "WikiText-103 困惑度 18.3，enwik8 0.99 bpc，text8 1.08 bpc，One Billion Word 困惑度 21.8",
    ),
    "txl.pvh.result.here": (
        "validation {bpc:.3f} bpc with memory, {cleared:.3f} with it cleared; fragmented baseline {base:.3f}",
        "验证集：有记忆 {bpc:.3f} bpc，清空记忆 {cleared:.3f}；碎片化基线 {base:.3f}",
    ),
    "txl.pvh.speed": ("evaluation speed", "评估速度"),
    "txl.pvh.speed.paper": (
        "up to 1,800+ times faster than a vanilla Transformer (enwik8, attention length 3,800)",
        "比普通 Transformer 最多快 1,800 多倍（enwik8，注意力长度 3,800）",
    ),
    "txl.pvh.speed.here": (
        "{s:.0f}× at attention length {A} (measured, CPU)",
        "注意力长度 {A} 时快 {s:.0f} 倍（实测，CPU）",
    ),
    "txl.pvh.reach": ("dependency length", "依赖长度"),
    "txl.pvh.reach.paper": (
        "80% longer than RNNs and 450% longer than vanilla Transformers",
        "比 RNN 长 80%，比普通 Transformer 长 450%",
    ),
    "txl.pvh.reach.here": (
        "not measured; section 3 measures the reach of the attention instead",
        "未测量；第 3 部分改为测量注意力的可达范围",
    ),
    "txl.pvh.dep.dropout": (
        "No dropout, no adaptive softmax or adaptive input embeddings: a short run on a small corpus with a "
        "2,048-id vocabulary.",
        "不使用 dropout，也不使用自适应 softmax 或自适应输入嵌入：这是在小语料、2,048 个 id 词表上的短时训练。",
    ),
    "txl.pvh.dep.baseline": (
        "The fragmented baseline is a GPT-2-style model of the same size with learned positions and context L, "
        "trained for the same step time on the same segments, not the character model of Al-Rfou et al.",
        "碎片化基线是同样大小、使用可学习位置编码、上下文为 L 的 GPT-2 式模型，在相同片段上训练相同的步时间，"
        "而不是 Al-Rfou 等人的字符级模型。",
    ),
    "txl.pvh.dep.vanilla": (
        "The speed comparison times our own network with the memory off as the vanilla evaluation.",
        "速度比较中，普通 Transformer 的评估用的是关闭记忆的同一个网络。",
    ),
    "txl.pvh.dep.eval": (
        "Evaluation uses the training memory M = 64 (the memory sweep above shows other lengths).",
        "评估使用训练时的记忆长度 M = 64（上面的记忆长度曲线给出其他长度）。",
    ),
    # card
    "txl.card.title": ("Model card", "模型卡"),
    "txl.card.missing": ("The model card has no timings yet.", "模型卡中还没有计时数据。"),
    "txl.card.val_bpc": ("Validation bpc, with memory", "验证集 bpc（有记忆）"),
    "txl.card.no_memory": ("Validation bpc, memory cleared", "验证集 bpc（清空记忆）"),
    "txl.card.baseline": ("Baseline bpc, fragmented", "基线 bpc（碎片化）"),
    "txl.card.baseline.help": (
        "The GPT-2-style baseline on non-overlapping segments of L tokens; with windows overlapping by half: "
        "{sliding:.3f}.",
        "GPT-2 式基线在不重叠的 L 词元片段上的结果；使用重叠一半的窗口时为 {sliding:.3f}。",
    ),
    "txl.card.first": ("Gain on the first 8 tokens (bpc)", "前 8 个词元上的收益（bpc）"),
    "txl.card.caption": (
        "Trained on {data}. {minutes:.0f} min in all; Transformer-XL took {steps} steps and the baseline "
        "{base_steps} in the same step time. Command: `{command}`",
        "训练数据：{data}。共用时 {minutes:.0f} 分钟；在相同的步时间内，Transformer-XL 走了 {steps} 步，"
        "基线走了 {base_steps} 步。命令：`{command}`",
    ),
    "txl.explain": (
        "**What Transformer-XL changed** (Dai et al. 2019, [arXiv:1901.02860](https://arxiv.org/abs/1901.02860)). "
        "Segment-level recurrence: the hidden states of the previous segment are cached and reused as extra keys and "
        "values, without gradient, so context flows across segment boundaries and grows with depth. Relative "
        "positional encoding: the score depends on the offset between query and key (a fixed sinusoid R) plus two "
        "learned biases u and v, so the cached states need no position of their own. Together they remove context "
        "fragmentation and let evaluation reuse computation instead of recomputing a sliding window for every token.",
        "**Transformer-XL 改变了什么**（Dai 等人 2019，[arXiv:1901.02860](https://arxiv.org/abs/1901.02860)）。"
        "片段级循环：缓存上一个片段的隐藏状态，作为额外的键和值重复使用，梯度不传入，使上下文能跨越片段边界，"
        "并随深度增长。相对位置编码：分数取决于查询与键之间的偏移（固定的正弦编码 R）以及两个可学习偏置 u 和 v，"
        "因此缓存的状态不需要自己的位置。两者结合消除了上下文碎片化，并让评估可以复用计算，"
        "而不必为每个词元重新计算一个滑动窗口。",
    ),
}
