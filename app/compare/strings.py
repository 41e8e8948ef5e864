"""Every string the Compare page shows, in English and 简体中文."""

STRINGS = {
    "compare.intro": (
        "Pick two or three language models and one text. Each reads the text after `<|endoftext|>` and pays, for "
        "every token, −log₂ of the probability it gave that token. Tokenizers differ (ours share one byte-level BPE "
        "of 2,048 ids; SmolLM2 has its own of 49,152), so every token's bits are spread over the characters it "
        "covers: the curves below share one axis, character positions, and the totals are bits per character.",
        "选两到三个语言模型和一段文本。每个模型在 `<|endoftext|>` 之后读这段文本，每个词元付出 −log₂(它给这个词元的"
        "概率) 比特。各模型的分词器不同（我们的模型共用一个 2,048 个 id 的字节级 BPE；SmolLM2 有自己的 49,152 个），"
        "所以每个词元的比特平均分给它覆盖的字符：下面的曲线共用一个横轴——字符位置，总数是每字符比特数。",
    ),
    "compare.try.do": (
        "Pick `gpt` and `mamba-lm`, then add `smollm2-135m` if it is here.",
        "选 `gpt` 和 `mamba-lm`，若本机有 `smollm2-135m` 再加上它。",
    ),
    "compare.try.see": (
        "The curves rise and fall together at the same characters — the first letters of words and names are costly "
        "for every model — while the real model's line sits lower almost everywhere; in the costs table GPT's "
        "KV cache is many times Mamba's state.",
        "几条曲线在同样的字符处一起升降——词和人名的首字母对每个模型都贵——而真实模型的线几乎处处更低；在代价表里，"
        "GPT 的 KV 缓存是 Mamba 状态的许多倍。",
    ),
    "compare.try.why": (
        "What is hard to predict is mostly in the text, not in the architecture; the size of the model and its data "
        "(the table of cards) move the whole line; what the architecture changes most is what it holds while it "
        "writes.",
        "难预测的地方主要由文本决定，而非架构；模型规模和训练数据（卡片表）让整条线上下平移；架构改变最多的是它写作时"
        "要保存的东西。",
    ),
    "compare.models": ("Models (2 or 3)", "模型（2 到 3 个）"),
    "compare.models.help": (
        "Our decoders trained on the Shakespeare BPE, and the real pretrained ones this machine has.",
        "在莎士比亚 BPE 上训练的我们的解码器，以及本机已有的真实预训练模型。",
    ),
    "compare.skipped.title": ("Which models are here, and which are not", "提供了哪些模型，哪些没有"),
    "compare.skipped": (
        "Not offered: `bert` (an encoder: it reads both sides of a masked token and predicts no next token), `t5` "
        "(an encoder–decoder trained to fill in dropped spans, with its own 4,096-id tokenizer), `switch` and its "
        "siblings (trained on an even mix of Shakespeare, Python and arithmetic with their own 1,024-id tokenizer: "
        "the MoE page compares them on those three), `sft`/`dpo`/`ppo` (GPT tuned to answer in an instruction "
        "format), and the models of synthetic tasks (`cot`, `direct`, `grpo`: 19-id arithmetic; the Mamba copying "
        "and induction models; `transformer`; `demo`).",
        "未提供：`bert`（编码器：看被遮住词元两侧，不预测下一个词元）、`t5`（编码器–解码器，训练目标是补全被删去的"
        "片段，分词器有 4,096 个 id）、`switch` 及其兄弟模型（在莎士比亚、Python 与算术的均匀混合上训练，分词器有 "
        "1,024 个 id：MoE 页面在这三类数据上比较它们）、`sft`/`dpo`/`ppo`（调成按指令格式作答的 GPT），以及合成任务的"
        "模型（`cot`、`direct`、`grpo`：19 个 id 的算术；Mamba 的复制与归纳模型；`transformer`；`demo`）。",
    ),
    "compare.loading": ("Converting {name} on first use: {what}", "首次使用，正在转换 {name}：{what}"),
    "compare.text": ("Text (at most {max} characters)", "文本（至多 {max} 个字符）"),
    "compare.examples": ("Passages of the held-out plays", "留出剧本中的段落"),
    "compare.bits.title": ("1 · Bits per character along the text", "1 · 沿文本的每字符比特数"),
    "compare.bits.x": ("character position", "字符位置"),
    "compare.bits.y": ("bits per character", "每字符比特"),
    "compare.smooth": ("Average over characters", "按字符平均"),
    "compare.smooth.help": (
        "Each point is the mean of this character and the ones before it, up to this many; 1 draws every character.",
        "每个点是该字符及其之前若干字符的平均，至多这么多个；1 表示逐字符绘制。",
    ),
    "compare.bpc": ("{name}: bits/char", "{name}：比特/字符"),
    "compare.bpc.help": (
        "On this text: Σ −log₂ p(token) over every token ÷ {n} characters. {tokens} tokens.",
        "在本文本上：所有词元的 Σ −log₂ p(词元) ÷ {n} 个字符。共 {tokens} 个词元。",
    ),
    "compare.bits.note": (
        "A token covering several characters shares its bits among them evenly, so a model that reads `the` as one "
        "token and one that reads it as three are charged on the same three characters. Characters split into "
        "several byte tokens (é, 你, an emoji) carry all of those tokens' bits.",
        "覆盖多个字符的词元把比特平均分给这些字符：把 `the` 读成一个词元的模型和读成三个词元的模型，都记在同样三个字符"
        "上。被拆成多个字节词元的字符（é、你、表情符号）承担这些词元的全部比特。",
    ),
    "compare.guess.title": ("2 · What each model expected at a character", "2 · 每个模型在某个字符处的预期"),
    "compare.position": ("Character position", "字符位置"),
    "compare.at": ("At character {pos}: {context}", "字符位置 {pos}：{context}"),
    "compare.guess.head": (
        "**{name}** — token {i}: `{token}` (characters {a}–{b}), which it gave {p}",
        "**{name}** —— 词元 {i}：`{token}`（字符 {a}–{b}），它给出的概率为 {p}",
    ),
    "compare.guess.rank": ("guess", "猜测"),
    "compare.guess.token": ("token", "词元"),
    "compare.guess.prob": ("probability", "概率"),
    "compare.guess.note": (
        "Each model's guesses for the token that holds this character, from the text before that token: the models "
        "may cut the text in different places, so their tokens can start at different characters.",
        "每个模型对包含该字符的词元的猜测，依据的是该词元之前的文本：各模型切分文本的位置可能不同，所以它们的词元可以"
        "从不同的字符开始。",
    ),
    "compare.open": ("Open {name}'s page", "打开 {name} 的页面"),
    "compare.mix.title": (
        "3 · What each model mixes to make that guess",
        "3 · 每个模型为做出这个猜测混合了什么",
    ),
    "compare.mix.clamped": (
        "One layer and head for every model; a model with fewer shows its last one.",
        "所有模型共用一个层和头；层数或头数较少的模型显示它的最后一个。",
    ),
    "compare.mix.head": (
        "**{name}** · {lh} — the query is token {i}, `{token}`, the last one it read before that guess",
        "**{name}** · {lh} —— 查询是词元 {i} `{token}`，即做出该猜测前它读到的最后一个词元",
    ),
    "compare.mix.head.state": (
        "**{name}** · {layer} — Δ at every token up to {i}, `{token}`, the last one it read before that guess",
        "**{name}** · {layer} —— 直到词元 {i} `{token}`（做出该猜测前读到的最后一个）的每个词元处的 Δ",
    ),
    "compare.mix.keys": ("{name}: keys it reads", "{name}：读取的键"),
    "compare.mix.keys.kv": (
        "Every token from <|endoftext|> up to the query: one more with each token, as its KV cache.",
        "从 <|endoftext|> 到查询的每个词元：每多一个词元就多一个，和它的 KV 缓存一样。",
    ),
    "compare.mix.keys.latent": (
        "Every token up to the query: MLA rebuilds their keys and values from its cached latents.",
        "直到查询的每个词元：MLA 从缓存的潜在向量重建它们的键和值。",
    ),
    "compare.mix.keys.window": (
        "Keys inside the window / every token up to the query: the window stops growing at W.",
        "窗口内的键 / 直到查询的全部词元：窗口长到 W 后不再增长。",
    ),
    "compare.mix.keys.memory": (
        "Memory keys + keys of the current segment up to the query.",
        "记忆中的键 + 当前段中直到查询的键。",
    ),
    "compare.mix.state": ("{name}: state it holds", "{name}：保存的状态"),
    "compare.mix.state.help": (
        "The recurrent state after the query, float32: the same bytes at every position of the text.",
        "读到查询后的循环状态（float32）：在文本的每个位置字节数都相同。",
    ),
    "compare.mix.delta": (
        "Δ at layer {layer}, mean over the channels, from {a:.4f} (lightest) to {b:.4f} (darkest): the larger the "
        "step, the more this token is written into the state and the more the state before it fades",
        "层 {layer} 的 Δ，对通道取平均，从 {a:.4f}（最浅）到 {b:.4f}（最深）：步长越大，"
        "该词元写入状态越多，之前的状态衰减越多",
    ),
    "compare.mix.outside": ("outside the window: 0", "窗口外：0"),
    "compare.mix.rest.window": ("window, W = {w}", "窗口，W = {w}"),
    "compare.mix.rest.memory": ("current segment", "当前段"),
    "compare.mix.rest.kv": ("every token so far", "至今的每个词元"),
    "compare.mix.rest.latent": ("every token so far", "至今的每个词元"),
    "compare.mix.memory": ("memory", "记忆"),
    "compare.mix.cut": (
        "The text is longer than its context: the row covers positions {a}–{b}, what one forward reads.",
        "文本长于它的上下文：这一行覆盖位置 {a}–{b}，即一次前向读入的部分。",
    ),
    "compare.mix.no_memory": (
        "The first segment has no memory yet: pick a character past the first {L} tokens.",
        "第一段还没有记忆：请选前 {L} 个词元之后的字符。",
    ),
    "compare.mix.note": (
        "An attention row is the share of its mix each earlier token gets (it sums to 1): it grows by one key with "
        "every token, unless a window or a memory bounds it. The links open each model's page on this text, at this "
        "layer, head and token where the page has them.",
        "注意力行是每个更早的词元在混合中所占的份额（总和为 1）：每多一个词元就多一个键，除非窗口或记忆限制了它。"
        "链接在这段文本上打开各模型的页面，并尽量定位到这里的层、头和词元。",
    ),
    "compare.mix.note.state": (
        "Mamba has no row to show: it mixed the earlier tokens into its state as it read them, each as much as its "
        "Δ allowed.",
        "Mamba 没有这样的行：它边读边把之前的词元混入状态，每个词元混入多少取决于它的 Δ。",
    ),
    "compare.cards.title": (
        "4 · A fair comparison: what differs besides the architecture",
        "4 · 公平比较：架构之外还有哪些不同",
    ),
    "compare.cards.note": (
        "Read a gap in bits per character against this table first: a model with more parameters, more training "
        "tokens or a longer context is expected to be lower whatever its architecture. Ours were trained on the "
        "same 37 works with the same tokenizer, for minutes on a CPU.",
        "先对照这张表看每字符比特数的差距：参数更多、训练词元更多或上下文更长的模型，无论架构如何，都应更低。我们的"
        "模型在同样的 37 部作品上、用同一个分词器、在 CPU 上训练几分钟。",
    ),
    "compare.cards.real": (
        "SmolLM2-135M (arXiv 2502.02737) has about 60× the parameters of ours, was trained on trillions of tokens of "
        "web text, code and maths and then tuned on instructions; its card is written from the file's own metadata, "
        "which holds no training steps or batch sizes.",
        "SmolLM2-135M（arXiv 2502.02737）的参数约为我们模型的 60 倍，在数万亿词元的网页文本、代码和数学数据上训练，"
        "之后做过指令微调；它的卡片取自文件自身的元数据，其中没有训练步数和批量大小。",
    ),
    "compare.col.model": ("model", "模型"),
    "compare.col.params": ("parameters", "参数"),
    "compare.col.data": ("training data", "训练数据"),
    "compare.col.steps": ("training steps", "训练步数"),
    "compare.col.batch": ("batch × context", "批量 × 上下文"),
    "compare.col.tokens": ("training tokens (steps × batch × context)", "训练词元（步数 × 批量 × 上下文）"),
    "compare.col.context": ("reads at once", "一次读入"),
    "compare.col.vocab": ("vocabulary", "词表"),
    "compare.col.val": ("bits/char, validation plays (card)", "每字符比特，验证剧本（卡片）"),
    "compare.col.here": ("bits/char, this text", "每字符比特，本文本"),
    "compare.later": ("{steps} (+{later} later)", "{steps}（之后另有 {later}）"),
    "compare.real_data": ("released model: {origin}", "已发布模型：{origin}"),
    "compare.costs.title": ("5 · What each costs on this text, measured now", "5 · 每个模型在本文本上的代价（实测）"),
    "compare.col.kind": ("holds while writing", "写作时保存"),
    "compare.col.held": ("held after this text", "读完本文本后保存"),
    "compare.col.per_token": ("per token of text", "每个文本词元"),
    "compare.fixed": ("— (does not grow)", "—（不增长）"),
    "compare.col.ms": ("ms per generated token (median of {n})", "每生成一个词元的毫秒数（{n} 次的中位数）"),
    "compare.kind.kv": ("KV cache (grows)", "KV 缓存（增长）"),
    "compare.kind.latent": ("latent KV cache (grows)", "潜在 KV 缓存（增长）"),
    "compare.kind.window": ("rolling KV cache (W slots)", "滚动 KV 缓存（W 个槽）"),
    "compare.kind.memory": ("memory of hidden states (fixed)", "隐藏状态记忆（固定）"),
    "compare.kind.state": ("recurrent state (fixed)", "循环状态（固定）"),
    "compare.costs.note": (
        "Bytes are float32, measured from the cache tensors after the model read this text (a KV cache that does not "
        "fit the context is measured on its last tokens and scaled: it grows by the same bytes per token). Time: "
        "{n} greedy steps after the text, one token each, on this server's {device} right now — other readers share "
        "it, so compare the models within one table, not across visits. MTP's decoder keeps no cache and re-reads the "
        "text for every token.",
        "字节数按 float32 计，取自模型读完本文本后的缓存张量（超出上下文的 KV 缓存在最后若干词元上测量后按比例放大："
        "每个词元增长的字节数相同）。时间：读完文本后贪心生成 {n} 步，每步一个词元，此刻在本服务器的 {device} 上——"
        "其他读者共用它，所以请在同一张表里比较模型，不要跨次访问比较。MTP 解码器不保存缓存，每个词元都重读整段文本。",
    ),
    "compare.why.title": ("What to look at", "看什么"),
    "compare.why.state": (
        "**Attention against a recurrent state.** A Transformer decoder keeps every earlier token's keys and values "
        "(the KV cache): its bytes grow with the text, and each new token attends over all of them. Mamba (arXiv "
        "2312.00752) folds the text into a state of fixed size — per layer a few convolution inputs and a "
        "(channels × N) SSM state — so the bytes in the table do not change with the length; it pays for this by "
        "having to choose what to keep, which its input-dependent Δ, B, C do. In section 3, move the character right: "
        "the attention row gets one key longer each token, while Mamba's state keeps its bytes; what Mamba shows "
        "instead is Δ, how strongly each token was written into that state.",
        "**注意力与循环状态。** Transformer 解码器保存之前每个词元的键和值（KV 缓存）：字节数随文本增长，每个新词元都要"
        "对它们全部做注意力。Mamba（arXiv 2312.00752）把文本折叠进固定大小的状态——每层几个卷积输入和一个（通道 × N）"
        "的 SSM 状态——所以表中的字节数不随长度变化；代价是它必须选择保留什么，这由依赖输入的 Δ、B、C 完成。"
        "在第 3 节把字符往右移：注意力行每个词元长一个键，"
        "而 Mamba 的状态字节数不变；Mamba 展示的是 Δ，即每个词元被写入状态的强度。",
    ),
    "compare.why.heads": (
        "**How many key/value heads.** Per token and layer a KV cache holds 2 × (key/value heads) × (head width) "
        "numbers. LLaMA-MHA keeps 4 key/value heads, LLaMA (GQA, arXiv 2305.13245) 2 shared by 4 query heads, "
        "LLaMA-MQA (arXiv 1911.02150) 1: caches in the ratio 4 : 2 : 1 for near-equal bits per character. MLA "
        "(arXiv 2405.04434) caches one 64-wide latent and a 16-wide rotary key per token and layer instead, less "
        "than even MQA here. In section 3 each row is still softmax weights over the same tokens: sharing key/value "
        "heads or caching a latent changes what is stored, not what a row covers.",
        "**键/值头的个数。** KV 缓存每个词元每层保存 2 ×（键/值头数）×（头宽）个数。LLaMA-MHA 有 4 个键/值头，LLaMA"
        "（GQA，arXiv 2305.13245）让 4 个查询头共享 2 个，LLaMA-MQA（arXiv 1911.02150）只有 1 个："
        "缓存之比为 4 : 2 : 1，而每字符比特数几乎相同。"
        "MLA（arXiv 2405.04434）改为每个词元每层缓存一个 64 维潜在向量和一个 16 维旋转键，"
        "这里比 MQA 还小。在第 3 节，每一行仍是对同样词元的 softmax 权重：共享键/值头或缓存潜在向量改变的是存储的内容，"
        "而不是一行覆盖的范围。",
    ),
    "compare.why.window": (
        "**A sliding window.** Mistral (arXiv 2310.06825) lets each layer attend to the last W = 32 tokens only; its "
        "rolling cache keeps W slots per layer, so once the text passes W tokens its bytes stop growing, while "
        "information from further back still arrives through the layers (W × layers tokens). In section 3, once the "
        "query is past W tokens, its row is exactly 0 left of the window (shaded).",
        "**滑动窗口。** Mistral（arXiv 2310.06825）让每层只关注最近 W = 32 个词元；它的滚动缓存每层保存 W 个槽，"
        "文本超过 W 个词元后字节数不再增长，而更早的信息仍可逐层传递（W × 层数个词元）。在第 3 节，"
        "查询超过 W 个词元后，"
        "它的行在窗口左侧（阴影）处恰好为 0。",
    ),
    "compare.why.memory": (
        "**Segments with memory.** Transformer-XL (arXiv 1901.02860) reads the text in segments of 64 tokens and keeps "
        "the last 64 hidden states of each layer as a memory the next segment attends to, with relative positions; "
        "what it holds is that memory, fixed in size, and generating a token reads it again. In section 3, pick a "
        "character past the first 64 tokens: the shaded keys of its row are that memory.",
        "**带记忆的分段。** Transformer-XL（arXiv 1901.02860）以 64 个词元为一段读文本，并把每层最后 64 个"
        "隐藏状态保留为下一段可以关注的记忆，使用相对位置；它保存的就是这份大小固定的记忆，生成一个词元时再次读取它。"
        "在第 3 节选前 64 个词元之后的字符：它那一行中阴影部分的键就是这份记忆。",
    ),
    "compare.why.mtp": (
        "**Multi-token prediction.** The MTP model (DeepSeek-V3, arXiv 2412.19437) is LLaMA with an extra module "
        "trained to guess two tokens ahead; its main head is what is scored here. Its bits per character show what "
        "the extra loss did to the next-token head; its page shows the drafts it makes for speculative decoding.",
        "**多词元预测。** MTP 模型（DeepSeek-V3，arXiv 2412.19437）是加了一个额外模块的 LLaMA，该模块被训练来猜后两个"
        "词元；这里评分的是它的主输出头。它的每字符比特数显示额外损失对下一词元预测的影响；它的页面展示它为推测解码"
        "生成的草稿。",
    ),
    "compare.why.real": (
        "**A real model beside ours.** {title} (arXiv {paper}) is a LLaMA-shaped decoder with grouped-query "
        "attention: {q} query heads share {kv} key/value heads of {d} numbers each, over {layers} layers. Its "
        "tokenizer cuts this text into fewer, longer tokens, and its cache keeps 2 × {kv} × {d} = {per_layer:,} "
        "numbers per token in each layer, {per_token:,} over its {layers} layers, far more per token than any of "
        "ours: the difference in bits per character comes with the size, the data and the tokenizer, not with a new "
        "idea in the block.",
        "**真实模型与我们的模型并排。** {title}（arXiv {paper}）是 LLaMA 结构的解码器，使用分组查询注意力：{q} 个"
        "查询头共用 {kv} 个键/值头，每个头 {d} 维，共 {layers} 层。它的分词器把这段文本切成更少、更长的词元；它的"
        "缓存每个词元在每层保存 2 × {kv} × {d} = {per_layer:,} 个数，{layers} 层共 {per_token:,} 个，每个词元都远多于"
        "我们任何一个模型：每字符比特数的差异来自规模、数据和分词器，而非块结构的新想法。",
    ),
    "compare.why.real.other": (
        "**A real model beside ours.** {name} was trained by others, on far more data than ours and with its own "
        "tokenizer: the difference in bits per character comes with the size, the data and the tokenizer as much as "
        "with the architecture.",
        "**真实模型与我们的模型并排。** {name} 由他人训练，数据远多于我们的模型，分词器也是它自己的：每字符比特数的"
        "差异既来自架构，也同样来自规模、数据和分词器。",
    ),
    "compare.why.kv": (
        "**Two attention decoders.** GPT (arXiv 2005.14165) and LLaMA (arXiv 2302.13971) both keep a KV cache that "
        "grows by a fixed number of bytes per token; they differ in position scheme (learned positions against "
        "RoPE), norm and FFN, and in how long they were trained (the table above). In section 3 both rows cover "
        "every token up to the query.",
        "**两个注意力解码器。** GPT（arXiv 2005.14165）和 LLaMA（arXiv 2302.13971）都保存每个词元增长固定字节数的 KV "
        "缓存；它们的不同在于位置方案（可学习位置与 RoPE）、归一化和前馈网络，以及训练多久（见上表）。在第 3 节，"
        "两者的行都覆盖直到查询的每个词元。",
    ),
    "compare.open.cut": (
        "{name}'s page does not read the whole passage on this model, so the link opens it on the first {n} of the "
        "{total} characters.",
        "{name} 的页面在这个模型上读不完整段文本，所以链接只带上前 {n} 个字符（共 {total} 个）。",
    ),
    "compare.open.cut.query": (
        "The query here lies past that part, so the page's query is that part's last token.",
        "这里的查询位于那部分之后，所以那个页面上的查询是那部分的最后一个词元。",
    ),
    "compare.error.empty": ("Type a text to compare the models on.", "请输入一段文本来比较模型。"),
    "compare.error.count": ("Pick two or three models (at most {max}).", "请选两到三个模型（至多 {max} 个）。"),
}
