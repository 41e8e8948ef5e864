"""English and 简体中文 text of the T5 page."""

STRINGS = {
    "t5.intro": (
        "T5 (Raffel et al., 1910.10683) casts every task as **text in, text out**: a short prefix says which task, "
        "and one encoder–decoder with one loss answers them all. It is pre-trained by **span corruption** — runs of "
        "tokens dropped, each replaced by one sentinel, and the decoder writes only what was dropped — and it has no "
        "absolute positions: each head adds a learned scalar per **relative-position bucket** to its attention "
        "scores. Below, a small T5 trained here on Shakespeare answers four prefixes with the same weights.",
        "T5（Raffel 等，1910.10683）把每个任务都写成**文本进、文本出**：一个简短的前缀说明是什么任务，"
        "同一个编码器–解码器、同一个损失函数回答所有任务。它用**片段破坏**预训练——成段的词元被删去，每段换成一个"
        "哨兵词元，解码器只需写出被删去的部分——并且不使用绝对位置：每个注意力头按**相对位置分桶**给注意力分数"
        "加上一个学到的标量。下面是一个在本站用莎士比亚文本训练的小型 T5，用同一套权重回答四种前缀。",
    ),
    "t5.try.do": (
        "In section 1 switch the task while keeping the text; in section 2 move the mean span length from 1 to 3 "
        "to 8 at noise density 0.15.",
        "在第 1 节保持文本不变、切换任务；在第 2 节把噪声密度固定为 0.15，把平均片段长度从 1 调到 3 再到 8。",
    ),
    "t5.try.see": (
        "The same weights answer in each task's form (a play's label, a number, the words in reverse order, the "
        "spans after their sentinels), though not always rightly: see each task's card numbers. The same share of "
        "tokens is dropped each time, but the sentinels become fewer and the target the decoder must write gets "
        "shorter.",
        "同一套权重按各任务的形式作答（剧名标签、一个数字、倒序的单词、哨兵之后的片段），但不一定答对："
        "见各任务在模型卡上的成绩。每次删去的词元比例相同，但哨兵变少了，解码器要写出的目标也变短了。",
    ),
    "t5.try.why": (
        "The prefix is the only thing that tells the model the task. A target holds one sentinel per span plus the "
        "dropped tokens, so longer spans mean fewer sentinels to write: the paper's argument that span corruption "
        "makes pre-training cheaper (§3.3.4).",
        "前缀是告诉模型任务的唯一信息。目标里每个片段有一个哨兵，再加上被删去的词元，所以片段越长、要写的哨兵越少："
        "这正是论文认为片段破坏让预训练更省算力的理由（§3.3.4）。",
    ),
    # ---- 1 · text-to-text ----
    "t5.tt.title": ("1 · One model, four prefixes", "1 · 一个模型，四种前缀"),
    "t5.tt.caption": (
        "Pick a task: its prefix is put before your text, the encoder reads both, and the decoder writes the answer "
        "greedily, one token at a time, until </s>. Every task is trained with the same cross-entropy on the answer "
        "text; nothing in the network is specific to a task.",
        "选一个任务：它的前缀会加在你的文本之前，编码器读入二者，解码器逐个词元贪心地写出答案，直到 </s>。"
        "所有任务都用同一个针对答案文本的交叉熵训练；网络中没有任何部分专属于某个任务。",
    ),
    "t5.task": ("Task", "任务"),
    "t5.task.which_play": ("which play", "哪部剧"),
    "t5.task.count_words": ("count words", "数单词"),
    "t5.task.reverse_words": ("reverse words", "倒序单词"),
    "t5.task.fill": ("fill spans", "填充片段"),
    "t5.task.which_play.help": (
        "Prefix `{prefix}` — a passage of one of eight plays → its one-word label (hamlet, lear, romeo, dream, "
        "merchant, coriolanus, cymbeline, pericles). Trained on 32-word passages; the examples come from the end of "
        "each play, which was never trained on. Chance is 1 in 8.",
        "前缀 `{prefix}` —— 八部剧之一的一段文字 → 它的单词标签（hamlet、lear、romeo、dream、merchant、"
        "coriolanus、cymbeline、pericles）。训练用 32 个单词的段落；示例取自每部剧结尾从未训练过的部分。"
        "随机猜中的概率是八分之一。",
    ),
    "t5.task.count_words.help": (
        "Prefix `{prefix}` — a line → how many words it has (split at spaces), written as digits: regression "
        "as text. Trained on runs of {lo} to {hi} consecutive words of the training works; the examples come from "
        "plays never trained on.",
        "前缀 `{prefix}` —— 一行文字 → 它有多少个单词（按空格切分），以数字写出：用文本做回归。"
        "训练用训练集剧本中连续 {lo} 到 {hi} 个单词的片段；示例取自从未训练过的剧。",
    ),
    "t5.task.reverse_words.help": (
        "Prefix `{prefix}` — a line → the same words in reverse order. Trained on {lo} to {hi} words: runs of "
        "consecutive words of the training works, words drawn one by one from their distinct words, and made-up words "
        "of vocabulary pieces (so that names it never saw split into pieces it has copied); the examples come from "
        "plays never trained on.",
        "前缀 `{prefix}` —— 一行文字 → 同样的单词倒序排列。训练用 {lo} 到 {hi} 个单词：训练集剧本中连续的单词、"
        "从其不同单词中逐个抽取的单词，以及由词表片段拼成的假词（这样没见过的人名拆成的片段它也练习过复制）；"
        "示例取自从未训练过的剧。",
    ),
    "t5.task.fill.help": (
        "Prefix `{prefix}` — a passage with spans replaced by sentinels, typed as <extra_id_0>, <extra_id_1>, … → "
        "each sentinel followed by its span, then one closing sentinel (the paper's Figure 2).",
        "前缀 `{prefix}` —— 一段文字，其中的片段换成了哨兵，写作 <extra_id_0>、<extra_id_1>…… → "
        "每个哨兵后面跟着它的片段，最后再加一个结束哨兵（论文图 2）。",
    ),
    "t5.text": ("Text (after `{prefix}`)", "文本（跟在 `{prefix}` 之后）"),
    "t5.text.help": (
        "At most {chars} characters and {tokens} tokens with the prefix. Characters the vocabulary has never seen "
        "(e.g. Chinese) are refused: they would all read as <unk>.",
        "最多 {chars} 个字符，加上前缀不超过 {tokens} 个词元。词表里没有的字符（例如中文）会被拒绝："
        "它们都会被读成 <unk>。",
    ),
    "t5.examples": ("Examples", "示例"),
    "t5.m.output": ("Model's answer", "模型的回答"),
    "t5.m.output.help": (
        "What the decoder wrote, greedily, up to </s>.",
        "解码器贪心写出的内容，直到 </s>。",
    ),
    "t5.m.expected": ("Right answer", "正确答案"),
    "t5.m.expected.help": (
        "Known by rule for counting and reversing, and for the examples of the other two tasks; – where unknown.",
        "数单词和倒序单词可按规则算出；另外两个任务只有示例有答案；未知时显示 –。",
    ),
    "t5.m.correct": ("Correct?", "正确？"),
    "t5.yes": ("yes", "是"),
    "t5.no": ("no", "否"),
    "t5.strip.source": (
        "What the encoder reads (pieces of the unigram vocabulary; ▁ starts a word, ⟨k⟩ is the sentinel <extra_id_k>)",
        "编码器读入的内容（unigram 词表中的片段；▁ 表示一个词的开头，⟨k⟩ 是哨兵 <extra_id_k>）",
    ),
    "t5.strip.output": (
        "What the decoder wrote, each token shaded by the probability the model gave it (hover for the number)",
        "解码器写出的内容，每个词元按模型给它的概率着色（悬停可看数值）",
    ),
    "t5.labels.caption": (
        "The score of every label, not only the one written: P(label, </s> | input) with each label forced "
        "through the decoder, normalised over the eight.",
        "每个标签的得分，不只是写出的那个：把每个标签强制送入解码器得到 P(标签, </s> | 输入)，再在八个标签之间归一化。",
    ),
    "t5.labels.share": ("share among the eight labels", "在八个标签中的占比"),
    "t5.cross.title": ("Cross-attention: where each output token looked", "交叉注意力：每个输出词元看向哪里"),
    "t5.layer": ("Decoder layer", "解码器层"),
    "t5.head": ("Head", "头"),
    "t5.cross.caption": (
        "{lh}: row t is the decoder writing output token t; the columns are the encoder's outputs over the input "
        "(prefix included). Cross-attention has no position bias in T5: where to look comes from content alone.",
        "{lh}：第 t 行是解码器在写第 t 个输出词元；列是编码器在输入（含前缀）上的输出。"
        "T5 的交叉注意力不加位置偏置：看向哪里只由内容决定。",
    ),
    "t5.cross.query": ("output token being written", "正在写出的输出词元"),
    "t5.cross.key": ("input token", "输入词元"),
    "t5.decode_ms": (
        "Greedy decoding: {steps} steps in {ms:.0f} ms (each step runs the decoder over the output so far).",
        "贪心解码：{steps} 步，用时 {ms:.0f} 毫秒（每一步都在目前的输出上运行一次解码器）。",
    ),
    # ---- 2 · span corruption ----
    "t5.span.title": ("2 · Span corruption, on your text", "2 · 片段破坏：用你的文本"),
    "t5.span.caption": (
        "Of the n tokens, round(n · density) are dropped, in round(dropped / mean span) spans; spans and kept runs "
        "alternate with random lengths (the recipe's `noise_mask`, from the seed). Each span becomes one sentinel in "
        "the input; the target lists every sentinel followed by its span, then a closing sentinel. The model is then "
        "asked for that target, with the `fill:` prefix it was fine-tuned and evaluated with.",
        "n 个词元中删去 round(n · 密度) 个，分成 round(删去数 / 平均片段长度) 段；删去的片段与保留的片段交替出现，"
        "长度随机（配方中的 `noise_mask`，由种子决定）。每个片段在输入中变成一个哨兵；目标依次列出每个哨兵及其片段，"
        "最后加一个结束哨兵。然后让模型写出这个目标，前面加上它微调和评估时用的前缀 `fill:`。",
    ),
    "t5.span.text": ("Text to corrupt", "要破坏的文本"),
    "t5.span.text.help": (
        "At most {chars} characters and {tokens} tokens (the length of a pre-training window). No sentinels here: "
        "they are placed for you.",
        "最多 {chars} 个字符、{tokens} 个词元（预训练窗口的长度）。这里不要写哨兵：哨兵会自动放置。",
    ),
    "t5.span.density": ("Noise density", "噪声密度"),
    "t5.span.density.help": (
        "Share of tokens dropped; the paper settles on 0.15 (§3.3.3).",
        "被删去的词元比例；论文最终选用 0.15（§3.3.3）。",
    ),
    "t5.span.mean": ("Mean span length", "平均片段长度"),
    "t5.span.mean.help": (
        "Average tokens per dropped span; the paper uses 3 (§3.3.4). At 1 every dropped token is a span of its own.",
        "每个被删片段的平均词元数；论文用 3（§3.3.4）。为 1 时每个被删的词元各自成为一段。",
    ),
    "t5.span.seed": ("Seed", "随机种子"),
    "t5.span.m.tokens": ("Tokens n", "词元数 n"),
    "t5.span.m.dropped": ("Dropped", "删去"),
    "t5.span.m.dropped.help": (
        "round(n · density), at least 1 and at most n − 1.",
        "round(n · 密度)，至少 1 个，至多 n − 1 个。",
    ),
    "t5.span.m.spans": ("Spans (sentinels)", "片段（哨兵）数"),
    "t5.span.m.spans.help": (
        "One sentinel per span; here {mean:.2f} dropped tokens per span.",
        "每个片段一个哨兵；这里平均每段 {mean:.2f} 个被删词元。",
    ),
    "t5.span.m.lengths": ("Input / target length", "输入 / 目标长度"),
    "t5.span.m.lengths.help": (
        "Tokens the encoder reads (without the fill: prefix) and tokens the decoder must write, </s> counted in both.",
        "编码器读入的词元数（不含 fill: 前缀）和解码器必须写出的词元数，两者都计入 </s>。",
    ),
    "t5.span.m.reassembled": ("Every token exactly once?", "每个词元恰好出现一次？"),
    "t5.span.m.reassembled.help": (
        "Putting each span of the target back in place of its sentinel in the input gives the original tokens, in "
        "order: every token is either kept in the input or written in the target, never both, never lost.",
        "把目标中的每个片段放回输入里对应哨兵的位置，得到按原顺序排列的原始词元：每个词元要么留在输入里，"
        "要么写在目标里，不会两处都有，也不会丢失。",
    ),
    "t5.span.strip.original": ("Your text; dropped tokens in orange", "你的文本；被删去的词元为橙色"),
    "t5.span.strip.input": (
        "Corrupted input: each dropped span is one sentinel ⟨k⟩",
        "破坏后的输入：每个被删的片段是一个哨兵 ⟨k⟩",
    ),
    "t5.span.strip.target": (
        "Target the decoder must write, each token shaded by the probability the model gives it when the target "
        "so far is fed in (teacher forcing)",
        "解码器必须写出的目标，每个词元按模型在输入已知目标前缀（教师强制）时给它的概率着色",
    ),
    "t5.span.strip.greedy": (
        "The model's own output, written greedily, shaded by the probability of each token it chose",
        "模型自己贪心写出的输出，按它所选每个词元的概率着色",
    ),
    "t5.span.strip.filled": (
        "Your text rebuilt from the model's output: green where its token is the dropped one, red where not "
        "(∅: the model wrote nothing there)",
        "用模型的输出重建你的文本：所填词元正确为绿色，错误为红色（∅：模型在那里没有写出内容）",
    ),
    "t5.span.m.filled": ("Dropped tokens rebuilt", "还原的被删词元"),
    "t5.span.m.filled.help": (
        "Dropped tokens whose place in the greedy output (same sentinel, same position in its span) holds exactly "
        "that token.",
        "被删词元中，在贪心输出里对应位置（同一哨兵、片段内同一位置）恰好是该词元的个数。",
    ),
    "t5.span.m.accuracy": ("Span-token accuracy (teacher-forced)", "片段词元准确率（教师强制）"),
    "t5.span.m.accuracy.help": (
        "Share of the target's span tokens (sentinels and </s> not counted) that are the model's top choice when "
        "the right target so far is fed in: the card's span_token_accuracy, measured on this one text.",
        "在输入正确的目标前缀时，目标中片段词元（不计哨兵和 </s>）恰为模型首选的比例：即卡片上的 "
        "span_token_accuracy，只在这一段文本上测得。",
    ),
    "t5.span.table": ("Each target token: probability and the model's top choice", "每个目标词元：概率与模型首选"),
    "t5.span.col.position": ("position", "位置"),
    "t5.span.col.target": ("target token", "目标词元"),
    "t5.span.col.p_target": ("P(target)", "P(目标)"),
    "t5.span.col.top": ("model's top token", "模型首选词元"),
    "t5.span.col.p_top": ("P(top)", "P(首选)"),
    "t5.len.title": ("How much must be predicted: four objectives on this text", "要预测多少：这段文本上的四种目标"),
    "t5.len.caption": (
        "The same n = {n} tokens and the same number of corrupted tokens k = {k}. **BERT** (1810.04805) has no "
        "decoder: it reads all n positions and predicts the k masked tokens, each on its own at its position. "
        "**T5's BERT-style objective** (§3.3.1) gives that corrupted input to an encoder–decoder whose target is the "
        "whole original text (n + 1 with </s>). **Single-token spans** drops the same k tokens one at a time (mean "
        "span length 1), each with its own sentinel: the paper's i.i.d. corruption (§3.3.2), where only neighbours "
        "that happen to be corrupted together share a sentinel, is close to this. **Spans** is the setting of the "
        "sliders. The paper compares such text-to-text targets in §3.3: the shorter the target, the cheaper each "
        "training step.",
        "同样的 n = {n} 个词元、同样被破坏的词元数 k = {k}。**BERT**（1810.04805）没有解码器：它读入全部 n 个位置，"
        "在 k 个被遮盖的位置上各自独立地预测原词元。**T5 的 BERT 式目标**（§3.3.1）把同样破坏后的输入交给"
        "编码器–解码器，目标是完整的原文（加上 </s> 共 n + 1 个）。**单词元片段**把同样的 k 个词元逐个删去"
        "（平均片段长度为 1），每个都有自己的哨兵：论文中的独立同分布破坏（§3.3.2）与此接近，"
        "只有恰好相邻、一起被破坏的词元才共用一个哨兵。**片段**即滑块的当前设置。论文在 §3.3 中比较了这类"
        "文本到文本的目标：目标越短，每一步训练越便宜。",
    ),
    "t5.len.bert": ("BERT (predicts k)", "BERT（预测 k 个）"),
    "t5.len.bert_style": ("T5 BERT-style", "T5 的 BERT 式"),
    "t5.len.iid": ("single-token spans", "单词元片段"),
    "t5.len.spans": ("spans (sliders)", "片段（滑块设置）"),
    "t5.len.input": ("input tokens", "输入词元数"),
    "t5.len.target": ("predicted tokens", "要预测的词元数"),
    "t5.len.tokens": ("tokens", "词元数"),
    "t5.len.m.vs_style": ("Target shorter than BERT-style by", "目标比 BERT 式短"),
    "t5.len.m.vs_style.help": (
        "1 − (span target length) / (n + 1): the decoder steps saved against writing the whole text back.",
        "1 − 片段目标长度 / (n + 1)：与写回整段原文相比节省的解码步数。",
    ),
    "t5.len.m.vs_iid": ("Target shorter than single-token spans by", "目标比单词元片段短"),
    "t5.len.m.vs_iid.help": (
        "1 − (span target length) / (single-token target length), the same k tokens dropped: the saving §3.3.4 "
        "points to.",
        "1 − 片段目标长度 / 单词元片段的目标长度，删去的都是同样 k 个词元：这就是 §3.3.4 所说的节省。",
    ),
    "t5.len.note": (
        "At mean span {mean:g} the target holds k dropped tokens plus one sentinel per span, a closing sentinel "
        "and </s>. BERT predicts fewer tokens, but as a classifier at fixed positions it cannot write text of "
        "another length — which is what text-to-text needs.",
        "平均片段长度为 {mean:g} 时，目标包含 k 个被删词元，加上每段一个哨兵、一个结束哨兵和 </s>。"
        "BERT 要预测的词元更少，但它是固定位置上的分类器，写不出长度不同的文本——而文本到文本正需要这一点。",
    ),
    # ---- 3 · relative position buckets ----
    "t5.buckets.title": ("3 · Relative position buckets", "3 · 相对位置分桶"),
    "t5.buckets.caption": (
        "T5 has no position embeddings at the input. Each attention score q·k gets a bias b_h[bucket(j − i)]: one "
        "learned scalar per head and bucket, where j − i is the key's offset from the query (§2.1). {buckets} "
        "buckets: in the encoder (bidirectional) {half} for keys before the query and {half} for keys after; small "
        "distances (below {exact_bi}) get a bucket each, larger ones share log-spaced buckets up to {max}, and "
        "everything beyond {max} shares the last one. The causal decoder spends all {buckets} on the past (exact "
        "below {exact_causal}); every later key falls in bucket 0 and is masked anyway. One table per stack is "
        "shared by all its layers.",
        "T5 在输入处不加位置嵌入。每个注意力分数 q·k 都加上偏置 b_h[bucket(j − i)]：每个头、每个桶一个学到的标量，"
        "j − i 是键相对于查询的偏移（§2.1）。共 {buckets} 个桶：编码器（双向）中 {half} 个给查询之前的键，"
        "{half} 个给之后的键；小距离（小于 {exact_bi}）各占一个桶，较大的距离按对数间隔共享桶，直到 {max}，"
        "超过 {max} 的全部共用最后一个桶。因果解码器把全部 {buckets} 个桶都用于过去（小于 {exact_causal} 时精确）；"
        "之后的键都落在桶 0，反正也会被遮盖。每个堆栈一张表，由其所有层共享。",
    ),
    "t5.buckets.bidirectional": ("encoder (bidirectional)", "编码器（双向）"),
    "t5.buckets.causal": ("decoder (causal)", "解码器（因果）"),
    "t5.buckets.exact": ("one bucket per offset", "每个偏移一个桶"),
    "t5.buckets.log": ("log-spaced", "对数间隔"),
    "t5.buckets.beyond": ("one bucket", "同一个桶"),
    "t5.buckets.max": ("± max distance {max}", "± 最大距离 {max}"),
    "t5.offset": ("offset j − i (key − query)", "偏移 j − i（键 − 查询）"),
    "t5.bucket": ("bucket", "桶"),
    "t5.buckets.m.exact": ("Exact distances (encoder / decoder)", "精确的距离数（编码器 / 解码器）"),
    "t5.buckets.m.exact.help": (
        "Distances 0 … below this number have a bucket of their own, in each direction of the encoder and in the "
        "decoder's past.",
        "从 0 到小于该数的距离各有自己的桶：编码器的每个方向和解码器的过去方向都是如此。",
    ),
    "t5.buckets.m.widest": ("Widest bucket within reach", "最大距离内最宽的桶"),
    "t5.buckets.m.widest.help": (
        "The most offsets any one encoder bucket covers between −{max} and {max}: far apart, the model only knows "
        "roughly how far.",
        "在 −{max} 到 {max} 之间，编码器单个桶覆盖的最多偏移数：距离远了，模型只大致知道有多远。",
    ),
    "t5.buckets.m.beyond": ("Bucket at −200 / +200 / decoder −200", "偏移 −200 / +200 / 解码器 −200 的桶"),
    "t5.buckets.m.beyond.help": (
        "Past ±{max} all offsets of a side share its last bucket: a layer cannot tell 150 from 1,500 tokens apart; "
        "the paper notes that later layers can still combine local information across larger offsets.",
        "超过 ±{max} 后，同一侧的所有偏移共用最后一个桶：单独一层分不清相隔 150 还是 1500 个词元；"
        "论文指出后面的层仍可通过组合局部信息感知更大的偏移。",
    ),
    "t5.bias.title": ("The biases our model learned", "我们的模型学到的偏置"),
    "t5.bias.caption": (
        "b_h[bucket(offset)] for every head, read from the model's `encoder.bias` and `decoder.bias` probes over a "
        "long input (the biases do not depend on the tokens). Flat steps are buckets; a high value pulls attention "
        "toward keys at that offset.",
        "每个头的 b_h[bucket(偏移)]，在一段长输入上从模型的 `encoder.bias` 和 `decoder.bias` 探针读出"
        "（偏置与词元内容无关）。平的台阶就是桶；数值越高，注意力越被拉向该偏移处的键。",
    ),
    "t5.bias.value": ("bias added to the score", "加到分数上的偏置"),
    "t5.bias.encoder": ("Encoder self-attention (bidirectional)", "编码器自注意力（双向）"),
    "t5.bias.decoder": ("Decoder self-attention (causal, past only)", "解码器自注意力（因果，仅过去）"),
    "t5.bias.summary": (
        "Encoder, mean over heads: {near:+.2f} within 2 tokens, {far:+.2f} at {max} or more tokens away.",
        "编码器各头平均：2 个词元以内为 {near:+.2f}，相距 {max} 个词元及以上为 {far:+.2f}。",
    ),
    "t5.matrix.title": ("The bias matrix for your input", "你的输入的偏置矩阵"),
    "t5.matrix.stack": ("Stack", "堆栈"),
    "t5.matrix.encoder": ("encoder, over the input", "编码器，作用在输入上"),
    "t5.matrix.decoder": ("decoder, over the output", "解码器，作用在输出上"),
    "t5.matrix.encoder.caption": (
        "{head}: the bias added to every encoder score of the input of section 1, in every layer. Each diagonal is "
        "one offset, so one colour; the matrix is the same for any text of this length.",
        "{head}：第 1 节的输入在每一层的每个编码器分数上所加的偏置。每条对角线是同一个偏移，因此颜色相同；"
        "任何同样长度的文本得到的矩阵都一样。",
    ),
    "t5.matrix.decoder.caption": (
        "{head}: the bias of the decoder's self-attention over the output of section 1. Above the diagonal "
        "(later keys) the causal mask removes the scores whatever the bias.",
        "{head}：第 1 节的输出上解码器自注意力的偏置。对角线以上（之后的键）无论偏置是多少，都会被因果遮盖去掉。",
    ),
    # ---- 4 · three architectures ----
    "t5.arch.title": ("4 · Three architectures, one figure", "4 · 三种架构，一张图"),
    "t5.arch.caption": (
        "The paper's §3.2.1 (Figures 3 and 4) compares three ways to map an input x to a target y, drawn here over "
        "the input and output of section 1 (rows: queries, columns: keys; the lines separate x from y). An "
        "**encoder–decoder** reads x with fully-visible attention in one stack, and a second stack writes y "
        "causally while cross-attending to all of x. A **decoder-only language model** reads x then y as one "
        "sequence with a causal mask, so an input token never sees the input after it. A **prefix LM** is that same "
        "single stack with the mask made fully visible over x.",
        "论文 §3.2.1（图 3 和图 4）比较了把输入 x 映射到目标 y 的三种方式，这里画在第 1 节的输入和输出上"
        "（行：查询，列：键；线条把 x 与 y 分开）。**编码器–解码器**用一个堆栈以全可见注意力读 x，"
        "再由第二个堆栈因果地写出 y，同时对全部 x 做交叉注意力。**仅解码器的语言模型**把 x 和 y 当作一个序列，"
        "用因果遮盖读入，所以输入词元永远看不到它后面的输入。**前缀语言模型**是同一个单堆栈，但在 x 上改为全可见遮盖。",
    ),
    "t5.arch.encoder_decoder": ("encoder–decoder", "编码器–解码器"),
    "t5.arch.language_model": ("decoder-only LM", "仅解码器语言模型"),
    "t5.arch.prefix_lm": ("prefix LM", "前缀语言模型"),
    "t5.arch.kind.blocked": ("masked", "被遮盖"),
    "t5.arch.kind.causal": ("causal self-attention", "因果自注意力"),
    "t5.arch.kind.visible": ("fully-visible self-attention", "全可见自注意力"),
    "t5.arch.kind.cross": ("cross-attention (decoder → encoder)", "交叉注意力（解码器 → 编码器）"),
    "t5.arch.m.sees": ("Input tokens an input token may attend to", "每个输入词元可以关注的输入词元数"),
    "t5.arch.m.sees.help": (
        "Mean over the input tokens of how many input tokens each may attend to, then the number of input tokens.",
        "对所有输入词元取平均：每个输入词元可以关注的输入词元数；斜线后为输入词元总数。",
    ),
    "t5.arch.note": (
        "In the paper's comparison the encoder–decoder with a denoising objective did best (Table 2). An "
        "encoder–decoder with L + L layers has about as many parameters as a 2L-layer decoder-only model but costs "
        "about as much compute as an L-layer one, since each token passes through only one of the two stacks.",
        "在论文的比较中，使用去噪目标的编码器–解码器效果最好（表 2）。L + L 层的编码器–解码器与 2L 层的仅解码器模型"
        "参数量相当，但计算量只与 L 层的模型相当，因为每个词元只经过两个堆栈中的一个。",
    ),
    # ---- paper vs here ----
    "t5.pvh.sizes": ("Sizes", "规模"),
    "t5.pvh.sizes.paper": (
        "Small ≈ 60 M (6 + 6 layers, d_model 512, 8 heads); Base ≈ 220 M (12 + 12, 768, 12 heads); Large ≈ 770 M "
        "(24 + 24, 1024, 16 heads); 3B and 11B (24 + 24, d_model 1024, 32 and 128 heads, d_ff 16,384 and 65,536)",
        "Small ≈ 6000 万（6 + 6 层，d_model 512，8 个头）；Base ≈ 2.2 亿（12 + 12，768，12 个头）；"
        "Large ≈ 7.7 亿（24 + 24，1024，16 个头）；3B 与 11B（24 + 24，d_model 1024，32 与 128 个头，"
        "d_ff 16,384 与 65,536）",
    ),
    "t5.pvh.sizes.here": (
        "{params:.1f} M: {enc_layers} + {dec_layers} layers, d_model {dim}, {heads} heads, d_ff {ffn}",
        "{params:.1f} M：{enc_layers} + {dec_layers} 层，d_model {dim}，{heads} 个头，d_ff {ffn}",
    ),
    "t5.pvh.data": ("Pre-training data", "预训练数据"),
    "t5.pvh.data.paper": (
        "C4, cleaned Common Crawl; the final models saw about 1 trillion tokens (1 M steps × 2,048 sequences × 512)",
        "C4（清洗过的 Common Crawl）；最终模型见过约 1 万亿个词元（100 万步 × 2048 个序列 × 512）",
    ),
    "t5.pvh.data.here": (
        "Shakespeare's training works ({tokens:,} tokens), the last 15% of the lines of eight plays held out",
        "莎士比亚的训练集作品（{tokens:,} 个词元），八部剧各自最后 15% 的台词留作测试",
    ),
    "t5.pvh.vocab": ("Vocabulary", "词表"),
    "t5.pvh.vocab.paper": (
        "SentencePiece, 32,000 wordpieces, with sentinels",
        "SentencePiece，32,000 个词片，含哨兵词元",
    ),
    "t5.pvh.vocab.here": (
        "unigram (SentencePiece-style, HF tokenizers), {vocab} ids incl. 64 sentinels",
        "unigram（SentencePiece 风格，HF tokenizers），{vocab} 个 id，含 64 个哨兵",
    ),
    "t5.pvh.positions": ("Positions", "位置"),
    "t5.pvh.positions.paper": (
        "32 buckets, log-spaced up to offset 128; a scalar per head; shared by the layers",
        "32 个桶，按对数间隔直到偏移 128；每个头一个标量；各层共享",
    ),
    "t5.pvh.positions.here": (
        "the same: {num_buckets} buckets up to {max_distance}",
        "相同：{num_buckets} 个桶，直到 {max_distance}",
    ),
    "t5.pvh.objective": ("Pre-training objective", "预训练目标"),
    "t5.pvh.objective.paper": ("span corruption, 15%, mean span 3", "片段破坏，15%，平均片段长度 3"),
    "t5.pvh.objective.here": (
        "the same, on 128-token windows, then a multi-task stage",
        "相同，在 128 个词元的窗口上；之后是一个多任务阶段",
    ),
    "t5.pvh.tasks": ("Tasks", "任务"),
    "t5.pvh.tasks.paper": (
        "GLUE, SuperGLUE, SQuAD, CNN/Daily Mail, WMT translation — all as text with prefixes",
        "GLUE、SuperGLUE、SQuAD、CNN/Daily Mail、WMT 翻译——全部以带前缀的文本表示",
    ),
    "t5.pvh.tasks.here": (
        "which play, count words, reverse words, fill — one model for all four",
        "哪部剧、数单词、倒序单词、填充片段——一个模型完成全部四项",
    ),
    "t5.pvh.result": ("Headline result", "主要结果"),
    "t5.pvh.result.paper": (
        "state of the art on many benchmarks covering summarization, question answering and text classification "
        "(the abstract); on SuperGLUE close to the human baseline",
        "在涵盖摘要、问答和文本分类的许多基准上达到当时最佳（摘要所述）；在 SuperGLUE 上接近人类基线",
    ),
    "t5.pvh.result.here": ("the card's numbers, in the expander below", "卡片上的数字，见下方展开栏"),
    "t5.pvh.dep.size": (
        "Far smaller: a few million parameters, and a vocabulary learned from Shakespeare alone.",
        "规模小得多：只有几百万参数，词表只从莎士比亚的文本中学得。",
    ),
    "t5.pvh.dep.dropout": (
        "No dropout (the paper uses 0.1).",
        "不使用 dropout（论文用 0.1）。",
    ),
    "t5.pvh.dep.scale": (
        "Attention scores are divided by √D as in the original Transformer; T5's code folds that factor into the "
        "initialisation of W_q instead. The two differ only in how training starts.",
        "注意力分数像原始 Transformer 一样除以 √D；T5 的代码则把这个因子并入 W_q 的初始化。两者只在训练的起点上不同。",
    ),
    "t5.pvh.dep.tied": (
        "The output reuses the embedding matrix without T5's rescale: T5's released code multiplies the decoder's "
        "output by d_model^−0.5 before the shared matrix; ours does not. Multiplying the final decoder norm's gain "
        "by d_model^−0.5 gives exactly that rescale (the logits are linear in the gain), so our learned gain times "
        "√d_model is T5's. Only the training differs.",
        "输出层复用嵌入矩阵，但没有 T5 的缩放：T5 发布的代码在乘共享矩阵之前把解码器输出乘以 d_model^−0.5，"
        "我们没有。把解码器最后一个归一化层的增益乘以 d_model^−0.5，就得到完全相同的缩放（logits 对增益是线性的），"
        "所以我们学到的增益乘以 √d_model 就是 T5 的增益。两者只在训练上不同。",
    ),
    "t5.pvh.dep.tasks": (
        "Toy tasks built from the plays stand in for the paper's benchmarks, and all four are learned in one "
        "multi-task stage after pre-training; the paper compares such strategies (§3.5) and fine-tunes its final "
        "models on each task separately.",
        "用剧本构造的小任务代替论文的基准，四个任务在预训练之后的一个多任务阶段中一起学习；论文比较了这类训练策略"
        "（§3.5），其最终模型在每个任务上分别微调。",
    ),
    # ---- card ----
    "t5.card.title": ("What the shipped model scores (its card)", "所发布模型的成绩（模型卡）"),
    "t5.card.metric": ("measure (held-out text)", "指标（未训练过的文本）"),
    "t5.card.target": ("bar to pass", "及格线"),
    "t5.card.value": ("our model", "我们的模型"),
    "t5.card.baseline": ("baseline", "基线"),
    "t5.card.which_play_accuracy": ("which play: accuracy (baseline: chance)", "哪部剧：准确率（基线：随机猜）"),
    "t5.card.count_words_exact_match": ("count words: exact match", "数单词：完全正确"),
    "t5.card.count_words_within_1": ("count words: off by at most 1", "数单词：误差不超过 1"),
    "t5.card.reverse_words_exact_match": ("reverse words: exact match", "倒序单词：完全正确"),
    "t5.card.span_token_accuracy": (
        "fill: span-token accuracy, teacher-forced (baseline: always the commonest token)",
        "填充：片段词元准确率，教师强制（基线：总猜最常见的词元）",
    ),
    "t5.card.caption.one": (
        "{params:,} parameters, trained in {minutes:.0f} minutes on {hardware}; measured by python -m "
        "models.evaluate t5 on 400 examples per task.",
        "{params:,} 个参数，在 {hardware} 上训练 {minutes:.0f} 分钟；由 python -m models.evaluate t5 "
        "在每个任务 400 个样例上测得。",
    ),
    "t5.card.caption": (
        "{params:,} parameters, trained in {runs} runs, each continuing the one before, {minutes:.0f} minutes in all "
        "(the last {last:.0f}) on {hardware}; measured by python -m models.evaluate t5 on 400 examples per task.",
        "{params:,} 个参数，分 {runs} 次训练、每次接着上一次，共 {minutes:.0f} 分钟（最后一次 {last:.0f} 分钟），"
        "硬件：{hardware}；由 python -m models.evaluate t5 在每个任务 400 个样例上测得。",
    ),
    "t5.explain": (
        "**Why text-to-text.** With every task written as text, one model, one loss and one decoding procedure "
        "serve classification, regression (a number written out), generation and span filling alike; adding a task "
        "means adding examples, not a new output layer. **Why spans.** A target that lists only what was dropped, "
        "one sentinel per span, is much shorter than the whole text, and in the paper span corruption at 15% with "
        "mean length 3 did at least as well as dropping tokens independently while costing less per step (§3.3.4). "
        "**Why buckets.** A scalar per head and relative bucket is a cheap way to tell attention how far apart "
        "two tokens are; log-spaced buckets keep precision where it matters (nearby) and let the model run on inputs "
        "longer than any it was trained on. Paper: arXiv 1910.10683.",
        "**为什么要文本到文本**。每个任务都写成文本后，同一个模型、同一个损失、同一种解码过程就能同时用于分类、"
        "回归（把数字写出来）、生成和片段填充；新增任务只需新增样例，无需新的输出层。**为什么用片段**。"
        "只列出被删部分、每段一个哨兵的目标比整段原文短得多；在论文中，15%、平均长度 3 的片段破坏至少与逐个独立删词"
        "一样好，而每一步的代价更低（§3.3.4）。**为什么分桶**。每个头、每个相对位置桶一个标量，是告诉注意力两个"
        "词元相距多远的一种省参数的办法；对数间隔的桶把精度留在最要紧的近处，也让模型能处理比训练时更长的输入。"
        "论文：arXiv 1910.10683。",
    ),
    # ---- errors ----
    "t5.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "t5.error.too_long": (
        "The text has {n} characters; at most {max} are allowed here.",
        "文本有 {n} 个字符；这里最多允许 {max} 个。",
    ),
    "t5.error.tokens": (
        "With the prefix this is {n} tokens; at most {max} are allowed. Shorten the text.",
        "加上前缀共 {n} 个词元；最多允许 {max} 个。请缩短文本。",
    ),
    "t5.error.unknown": (
        "The vocabulary (learned from Shakespeare's English) has no pieces for {chars}: the model would read them "
        "as <unk>. Use English letters, digits and ordinary punctuation.",
        "词表（从莎士比亚的英文中学得）里没有 {chars} 的片段：模型只会把它们读成 <unk>。请使用英文字母、"
        "数字和常用标点。",
    ),
    "t5.error.sentinel": (
        "Sentinels such as <extra_id_0> belong only to the fill task's input; remove them here.",
        "<extra_id_0> 这样的哨兵只用于填充任务的输入；请在这里删除。",
    ),
    "t5.error.sentinel_range": (
        "There is no sentinel <extra_id_{k}>: the vocabulary has <extra_id_0> … <extra_id_{n}>.",
        "没有哨兵 <extra_id_{k}>：词表中只有 <extra_id_0> … <extra_id_{n}>。",
    ),
    "t5.error.span_short": (
        "The text has {n} tokens; span corruption needs at least {min}.",
        "文本只有 {n} 个词元；片段破坏至少需要 {min} 个。",
    ),
    "t5.error.span_tokens": (
        "The text has {n} tokens; at most {max} are corrupted at once here (a pre-training window).",
        "文本有 {n} 个词元；这里一次最多破坏 {max} 个（一个预训练窗口的长度）。",
    ),
    "t5.error.task": ("Unknown task {task}.", "未知的任务 {task}。"),
    # a real checkpoint (t5-small), picked at the top of the page
    "t5.real.note": (
        "You are probing **{title}**, Google's released model, converted into our T5 class: {enc_layers} + "
        "{dec_layers} layers, d_model {dim}, {heads} heads, a SentencePiece vocabulary of {vocab:,} ids with "
        "{sentinels} sentinels, {num_buckets} position buckets up to {max_distance}. Its released weights were "
        "pre-trained on C4 "
        "together with the paper's supervised tasks, so it answers the paper's own prefixes: the task list below is "
        "its own. Our model's tasks (which play, counting, reversing) and its card are about ours only.",
        "你正在探查 **{title}**：Google 发布的模型，已转换进我们的 T5 类。{enc_layers} + {dec_layers} 层，"
        "d_model {dim}，{heads} 个头，SentencePiece 词表共 {vocab:,} 个 id（含 {sentinels} 个哨兵），"
        "{num_buckets} 个位置桶，"
        "最远 {max_distance}。发布的权重在 C4 上与论文中的有监督任务一起预训练，所以它能回答论文自己的前缀："
        "下面的任务列表就是它的任务。我们的模型的任务（哪部剧、数词、倒序）和模型卡只针对我们的模型。",
    ),
    "t5.try.see.real": (
        "The same weights answer each prefix in its form: German, French or Romanian text, a shorter summary, "
        "acceptable or unacceptable, spans after their sentinels. The same share of tokens is dropped each time, "
        "but the sentinels become fewer and the target the decoder must write gets shorter.",
        "同一组权重按各任务的形式作答：德语、法语或罗马尼亚语文本，更短的摘要，acceptable 或 unacceptable，"
        "哨兵后面跟着片段。每次删去的词元比例相同，但哨兵变少，解码器要写的目标也变短。",
    ),
    "t5.text.none": ("Text (no prefix)", "文本（无前缀）"),
    "t5.task.translate_de": ("English → German", "英译德"),
    "t5.task.translate_fr": ("English → French", "英译法"),
    "t5.task.translate_ro": ("English → Romanian", "英译罗马尼亚语"),
    "t5.task.summarize": ("summary", "摘要"),
    "t5.task.cola": ("grammatical? (CoLA)", "合乎语法吗？（CoLA）"),
    "t5.task.sentinels": ("fill sentinels", "填充哨兵"),
    "t5.task.translate_de.help": (
        "Prefix `{prefix}` — English text → German (WMT English–German, one of the paper's tasks).",
        "前缀 `{prefix}` —— 英文文本 → 德语（WMT 英德翻译，论文中的任务之一）。",
    ),
    "t5.task.translate_fr.help": (
        "Prefix `{prefix}` — English text → French (WMT English–French).",
        "前缀 `{prefix}` —— 英文文本 → 法语（WMT 英法翻译）。",
    ),
    "t5.task.translate_ro.help": (
        "Prefix `{prefix}` — English text → Romanian (WMT English–Romanian).",
        "前缀 `{prefix}` —— 英文文本 → 罗马尼亚语（WMT 英罗翻译）。",
    ),
    "t5.task.summarize.help": (
        "Prefix `{prefix}` — a news-like passage → a shorter one (CNN/Daily Mail). Answers stop after 64 tokens here.",
        "前缀 `{prefix}` —— 一段新闻式文字 → 更短的摘要（CNN/Daily Mail）。这里的回答最多 64 个词元。",
    ),
    "t5.task.cola.help": (
        "Prefix `{prefix}` — one sentence → acceptable or unacceptable: is it grammatical English (CoLA, in GLUE)?",
        "前缀 `{prefix}` —— 一个句子 → acceptable 或 unacceptable：它是合乎语法的英语吗（CoLA，GLUE 之一）？",
    ),
    "t5.task.sentinels.help": (
        "No prefix — a text with spans replaced by sentinels, typed as <extra_id_0>, <extra_id_1>, … → each "
        "sentinel followed by its span: the pre-training objective itself (the paper's Figure 2).",
        "无前缀 —— 一段文字，其中的片段换成了哨兵，写作 <extra_id_0>、<extra_id_1>…… → 每个哨兵后面跟着它的片段："
        "也就是预训练目标本身（论文图 2）。",
    ),
    "t5.span.caption.real": (
        "Of the n tokens, round(n · density) are dropped, in round(dropped / mean span) spans; spans and kept runs "
        "alternate with random lengths (our recipe's `noise_mask`, from the seed). Each span becomes one sentinel in "
        "the input; the target lists every sentinel followed by its span, then a closing sentinel. The model is "
        "asked for that target with no prefix: span corruption was its pre-training objective.",
        "n 个词元中删去 round(n · 密度) 个，分成 round(删去数 / 平均片段长度) 段；删去的片段与保留的片段交替出现，"
        "长度随机（我们配方中的 `noise_mask`，由种子决定）。每个片段在输入中变成一个哨兵；目标依次列出每个哨兵及其"
        "片段，最后加一个结束哨兵。然后让模型写出这个目标，不加前缀：片段破坏就是它的预训练目标。",
    ),
    "t5.pvh.real.same": ("the same: these are the released weights", "相同：这就是发布的权重"),
    "t5.pvh.vocab.real": (
        "SentencePiece, {vocab:,} ids in the model ({tokens:,} in the tokenizer, {sentinels} of them sentinels)",
        "SentencePiece，模型中 {vocab:,} 个 id（分词器中 {tokens:,} 个，其中 {sentinels} 个是哨兵）",
    ),
    "t5.pvh.tasks.real": (
        "the released weights were trained on the unsupervised and supervised tasks together (the paper's multi-task "
        "pre-training), so the prefixes work without fine-tuning",
        "发布的权重把无监督和有监督任务放在一起训练（论文中的多任务预训练），所以不经微调就能使用这些前缀",
    ),
    "t5.pvh.dep.real": (
        "None in the weights: converted into our class, equal to Hugging Face transformers' forward pass. This page "
        "gives it at most {tokens} input tokens and decodes greedily, at most {steps} tokens (the paper: beam search "
        "of width 4 for its final results).",
        "权重没有改动：转换进我们的类，与 Hugging Face transformers 的前向计算结果一致。本页最多给它 {tokens} "
        "个输入词元，并用贪心解码，最多 {steps} 个词元（论文的最终结果用宽度为 4 的束搜索）。",
    ),
    "t5.error.span_sentinels": (
        "These settings make {n} sentinels (one per span and a closing one); the model has {max}. Lower the noise "
        "density or raise the mean span length.",
        "这些设置需要 {n} 个哨兵（每个片段一个，另加一个结束哨兵）；模型只有 {max} 个。"
        "请降低噪声密度或增大平均片段长度。",
    ),
    "t5.intro.real": (
        "T5 (Raffel et al., 1910.10683) casts every task as **text in, text out**: a short prefix says "
        "which task, and one encoder–decoder with one loss answers them all. It is pre-trained by **span "
        "corruption** — runs of tokens dropped, each replaced by one sentinel, and the decoder writes "
        "only what was dropped — and it has no absolute positions: each head adds a learned scalar per "
        "**relative-position bucket** to its attention scores. Below, Google's released model answers "
        "the paper's own prefixes with the same weights.",
        "T5（Raffel 等，1910.10683）把每个任务都写成**文本进、文本出**：一个简短的前缀说明是什么"
        "任务，同一个编码器–解码器、同一个损失函数回答所有任务。它用**片段破坏**预训练——成段的词元被删去，每段换"
        "成一个哨兵词元，解码器只需写出被删去的部分——并且不使用绝对位置：每个注意力头按**相对位置分桶**给注意力分"
        "数加上一个学到的标量。下面是 Google 发布的模型，用同一套权重回答论文中的前缀。",
    ),
    "t5.tt.title.real": ("1 · One model, {n} tasks", "1 · 一个模型，{n} 个任务"),
    "t5.bias.title.real": ("The biases {title} learned", "{title} 学到的偏置"),
    "t5.error.unknown_real": (
        "The model's vocabulary has no pieces for {chars}: it would read them as <unk>. Write them another way.",
        "模型的词表里没有 {chars} 的片段：模型只会把它们读成 <unk>。请换一种写法。",
    ),
    # 5 · knock-outs (app/t5/knockout.py)
    "t5.ko.title": ("5 · Knock out a part of the model", "5 · 敲除模型的一部分"),
    "t5.ko.caption": (
        "Run the task of section 1 again with one head, or a whole self-attention, cross-attention or feed-forward "
        "sublayer, of the encoder or the decoder switched off. The model reads its own plain answer again (teacher "
        "forcing) to score each token, and writes a new answer.",
        "把第 1 节的任务再跑一遍，但关掉编码器或解码器中的一个头，或整个自注意力、交叉注意力或前馈子层。"
        "模型重新读入它原本的答案（教师强制）为每个词元打分，并重新写一个答案。",
    ),
    "t5.ko.m.loss": ("Loss of its answer, {what} out", "其答案的损失（敲除 {what}）"),
    "t5.ko.m.loss.help": (
        "Mean −log p in nats of the tokens of the plain answer (</s> included), read teacher-forced, plain → "
        "knocked out.",
        "原始答案各词元（含 </s>）的 −log p 平均值（奈特，教师强制读取），原始 → 敲除后。",
    ),
    "t5.ko.m.kept": ("Answer tokens still ranked first", "仍排第一的答案词元"),
    "t5.ko.m.kept.help": (
        "How many tokens of the plain answer the model still ranks first when it reads the ones before them.",
        "在读入前面词元的情况下，原始答案中有多少个词元仍被模型排在第一。",
    ),
    "t5.ko.m.answer": ("Its answer, knocked out", "敲除后的答案"),
    "t5.ko.m.answer.help": (
        "Greedy decoding with the part knocked out (∅: </s> first), and whether it is right where the right "
        "answer is known.",
        "敲除该部分后的贪心解码（∅：第一个就是 </s>），以及在已知正确答案时它是否正确。",
    ),
    "t5.ko.whole_answer": ("Its whole answer, knocked out:", "敲除后的完整答案："),
    "t5.ko.loss": ("loss (nats)", "损失（奈特）"),
    "t5.ko.read": (
        "Each pair of bars is one token of the plain answer. Grey: the plain run; red: the part knocked out. Where "
        "red rises, that token needed the part.",
        "每对柱子是原始答案中的一个词元。灰色：原始运行；红色：敲除该部分后。红色升高的地方，说明这个词元需要这一部分。",
    ),
    "t5.ko.read.default": (
        "On this input, zero the cross-attention of decoder layer 0 and the model ranks at most one of the {n} "
        "answer tokens first; zero layer 1's instead and it still reverses the words right.",
        "在这个输入上，把解码器层 0 的交叉注意力置零，{n} 个答案词元中至多一个仍排第一；"
        "改为把层 1 的置零，它仍能正确地反转单词。",
    ),
}
