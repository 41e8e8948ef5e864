"""Strings of the BERT page (Devlin et al. 2018, 1810.04805)."""

STRINGS = {
    "bert.intro": (
        "A small BERT — an encoder that reads the whole sentence in both directions — pre-trained here on "
        "Shakespeare's plays to fill in hidden tokens (the **masked language model**) and to tell whether segment B "
        "follows segment A (**next-sentence prediction**). Click word pieces to hide them (or type [MASK]) and see "
        "what the model guesses for each.",
        "一个小型 BERT——双向读取整句话的编码器——在这里用莎士比亚的剧本预训练：补全被遮住的词元（**掩码语言模型**），"
        "并判断 B 段是否紧接在 A 段之后（**下一句预测**）。点击词"
        "片把它遮住（或直接输入 [MASK]），看看模型对每个位置的猜测。",
    ),
    # guided experiment
    "bert.try.do": (
        "Pick the example `{thou}`, then `{you}`: only the word *after* the mask differs.",
        "先选择示例 `{thou}`，再选择 `{you}`：两句只有遮住位置*之后*的那个词不同。",
    ),
    "bert.try.see": (
        "With *thou* the best guesses are verb forms that go with thou — {thou_top}; with *you* they are "
        "{you_top}, none of them a thou-form.",
        "用 *thou* 时，最佳猜测是与 thou 搭配的动词形式——{thou_top}"
        "；用 *you* 时则是 {you_top}，没有一个是 thou 的形式。",
    ),
    "bert.try.why": (
        "The masked word agrees with a word to its right. A left-to-right language model predicting the second "
        "word has read only *What* in both sentences and must guess the same; BERT's masked language model sees "
        "both sides of the gap, which is why it could be trained bidirectionally at all.",
        "被遮住的词要与它右边的词搭配。从左到右的语言模型在预测第二个词时，两句都只读到了 *What*，只能给出同样的猜测；"
        "BERT 的掩码语言模型能看到空缺两边的词——正因如此，它才能以双向的方式训练。",
    ),
    "bert.examples": ("Examples for sentence A", "句子 A 的示例"),
    "bert.a": ("Sentence A", "句子 A"),
    "bert.a.help": (
        "Up to 200 characters. Write [MASK] to hide a token yourself. The vocabulary is lower-cased Shakespearean "
        "English: other scripts become [UNK].",
        "最多 200 个字符。可以直接写 [MASK] 来遮住一个词元。词表是小写的莎士比亚英语，其他文字会变成 [UNK]。",
    ),
    "bert.b": ("Sentence B (optional)", "句子 B（可选）"),
    "bert.b.help": (
        "The second segment of the pair, read with segment embedding B. Leave empty for a single sentence.",
        "句子对的第二个片段，使用片段 B 的片段嵌入。留空则只输入一个句子。",
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
        "WordPiece tokens including [CLS] and the [SEP] after each sentence (at most {max}).",
        "WordPiece 词元数，包括 [CLS] 和每个句子后的 [SEP]（最多 {max} 个）。",
    ),
    "bert.m.masked": ("Masked positions", "遮住的位置"),
    "bert.m.top": ("Best guess, first mask", "第一个遮住位置的最佳猜测"),
    "bert.m.top.help": (
        "The most probable token at the first masked position, read with the words on both sides of it.",
        "第一个遮住位置上概率最高的词元——模型同时利用了它左右两边的词。",
    ),
    "bert.m.is_next": ("P(IsNext)", "P(IsNext)"),
    "bert.m.is_next.help": (
        "The next-sentence head on [CLS]: how sure the model is that B really followed A (with the masks applied). "
        "It is right about {nsp:.0%} of the time on held-out pairs, so read one pair's number as a hint.",
        "[CLS] 上的下一句预测头：模型认为 B 确实紧跟在 A 之后的概率（在当前遮盖下）。它在留出的句子对上的准确率约为 "
        "{nsp:.0%}，所以单个句子对的数值只能当作参考。",
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
        "Pre-training corrupts your text with the paper's rates: a chosen token becomes [MASK] 80% of the time, a "
        "random token 10%, and stays unchanged 10%; the loss only looks at the chosen positions. One difference: "
        "here each token (not [CLS]/[SEP]) is chosen on its own with probability 15%, so a sequence gets 15% on "
        "average but a short text may get none or several; the paper's code picks a fixed count, 15% of the "
        "sequence's tokens. Change the seed to draw again.",
        "预训练按论文的比例破坏你的文本：被选中的词元 80% 替换为 [MASK]，10% 替换为随机词元，10% 保持不变；"
        "损失只计算被选中的位置。有一点不同：这里每个词元（[CLS]/[SEP] 除外）各自独立地以 15% 的概率被选中，"
        "所以平均是 15%，但短文本可能一个也没选中，也可能选中好几个；论文的代码则按固定数目选取，即序列词元数的 15%。"
        "换一个随机种子即可重新抽取。",
    ),
    "bert.seed": ("Seed", "随机种子"),
    "bert.seed.help": ("The same seed always draws the same example.", "相同的种子总是抽出相同的样本。"),
    "bert.ex.m.chosen": ("Chosen (of all tokens)", "被选中的（占全部词元）"),
    "bert.ex.m.chosen.help": (
        "Each token is chosen independently with probability 15%: about 15% on average, but a short text often "
        "gets none or two, so try a few seeds.",
        "每个词元各自独立地以 15% 的概率被选中：平均约为 15%，但短文本常常一个也没选中，或选中两个，多试几个种子。",
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
        "The second pre-training task. In the paper, B is the sentence that really follows A half of the time "
        "(IsNext) and a random sentence from the corpus the other half (NotNext). Here the pairs are spans of the "
        "plays: half the time B is the span that follows A, half the time a span from another play. A classifier "
        "on the [CLS] position learns to tell them apart.",
        "第二个预训练任务。论文中，B 有一半的时间是真正紧跟在 A 之后的句子（IsNext），另一半是语料中随机的一个句子"
        "（NotNext）。这里的句子对是剧本中的片段：一半的时间 B 是紧跟在 A 之后的片段，另一半是另一部剧中的片段。"
        "[CLS] 位置上的分类器学习区分这两种情况。",
    ),
    "bert.nsp.examples": ("Pairs from plays the model never saw", "来自模型从未见过的剧本的句子对"),
    "bert.nsp.ex.next": ("{play}: B follows A", "{play}：B 紧接 A"),
    "bert.nsp.ex.other": ("{play}: B from {other}", "{play}：B 来自{other}"),
    "bert.play.othello": ("Othello", "《奥赛罗》"),
    "bert.play.julius_caesar": ("Julius Caesar", "《尤利乌斯·凯撒》"),
    "bert.play.macbeth": ("Macbeth", "《麦克白》"),
    "bert.play.twelfth_night": ("Twelfth Night", "《第十二夜》"),
    "bert.play.tempest": ("The Tempest", "《暴风雨》"),
    "bert.nsp.need_b": ("Type a sentence B to ask whether it follows A.", "输入句子 B，看看它是否接在 A 之后。"),
    "bert.nsp.m.ab": ("P(IsNext) for A then B", "先 A 后 B 的 P(IsNext)"),
    "bert.nsp.m.ab.help": ("Nothing masked.", "不遮任何位置。"),
    "bert.nsp.m.ba": ("P(IsNext) for B then A", "先 B 后 A 的 P(IsNext)"),
    "bert.nsp.m.ba.help": (
        "The same two segments in the other order. NSP was never trained on swapped pairs — its NotNext examples "
        "come from another play — so it has no reason to notice the order. Telling the order apart is a "
        "different task, ALBERT's sentence-order prediction (arXiv 1909.11942).",
        "同样两段，顺序对调。下一句预测从未在对调的句子对上训练过——它的 NotNext 样本来自另一部剧——所以没有理由注意"
        "顺序。区分顺序是另一项任务：ALBERT 的句子顺序预测（arXiv 1909.11942）。",
    ),
    "bert.nsp.segments": ("Segments (blue = A, orange = B)", "片段（蓝色 = A，橙色 = B）"),
    "bert.nsp.segment": ("segment {:.0f}", "片段 {:.0f}"),
    "bert.nsp.honest": (
        "**What it learnt, and what not.** On the example pairs it scores the true continuation high and the span "
        "from another play low. But the skill is limited: on held-out pairs cut like its training data it is right "
        "{nsp:.0%} of the time, so any one pair may fool it — try a few of your own. It does not check the order "
        "either: swapped, the Othello pair still scores {swapped:.0%}. Later work found NSP of little use: "
        "RoBERTa (arXiv 1907.11692) dropped it and did as well or better.",
        "**它学到了什么，没学到什么。** 在示例句子对上，它给真正的后续打高分，"
        "给来自另一部剧的片段打低分。但这项能力有限：在与训练数据切法相同的留出句子对上，"
        "它的准确率为 {nsp:.0%}，所以任何一对都可能骗过它——自己多试几对看看。"
        "它也不检查顺序：把《奥赛罗》那一对对调后，得分仍有 {swapped:.0%}。"
        "后来的研究发现下一句预测用处不大：RoBERTa（arXiv 1907.11692）去掉了它，效果持平甚至更好。",
    ),
    "bert.emb.caption": (
        "The model's input is the sum of three learned vectors per position: the token's embedding, the segment's "
        "(A or B) and the position's; a LayerNorm follows. Rows are tokens (masked ones read as [MASK]), columns the "
        "{dim} dimensions.",
        "模型的输入是每个位置上三个可学习向量之和：词元嵌入、片段嵌入（A 或 B）和位置嵌入；之后再经过一个 LayerNorm。"
        "每一行是一个词元（被遮住的读作 [MASK]），每一列是 {dim} 个维度之一。",
    ),
    "bert.emb.token": ("token", "词元"),
    "bert.emb.segment": ("segment", "片段"),
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
    "bert.att.title": ("BERT, {lh}", "BERT，{lh}"),
    "bert.index.help": ("Layers and heads are counted from 0.", "层和头都从 0 开始编号。"),
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
        "**What you see.** Top-k guesses per hidden position, from a model of {params:.2f} million parameters "
        "trained for {minutes:.0f} minutes on {device}; {card}\n\n"
        "**More to try:** mask two neighbours at once, so that each loses the other as a clue; mask a ## piece "
        "of a word (the ##st of *question*) and compare with masking a whole word.",
        "**为什么要遮盖。** 预测下一个词的语言模型只能往左看：如果它也能看到右边，答案就在它的输入里了。"
        "BERT（[arXiv:1810.04805](https://arxiv.org/abs/1810.04805)）把 15% 的词元遮住，改为预测它们，"
        "于是每一层都可以双向注意——在注意力视图中，对角线两侧都有权重，而解码器的右侧全为零。\n\n"
        "**为什么是 80/10/10。** 之后在真实文本上使用模型时，[MASK] 永远不会出现。把一部分被选中的词元换成随机词元、"
        "一部分保持不变，模型就不能盲目相信任何一个输入词元，必须为"
        "每个位置（而不只是被遮住的位置）都保持良好的表示。\n\n"
        "**你看到的是什么。** 每个被遮住位置的前 k 个猜测，来自一个 {params:.2f}"
        " 百万参数、在{device}上用莎士比亚文本训练了 "
        "{minutes:.0f} 分钟的模型；{card}\n\n"
        "**还可以试试：** 同时遮住两个相邻的词，让它们彼此都失去对方这条线索；遮住一个词中的 ## 词片（*question* 中的 "
        "##st），与遮住整个词比较一下。",
    ),
    "bert.card": (
        "on held-out plays it ranks the hidden token first {top1:.0%} of the time and in its top 5 {top5:.0%} of "
        "the time (always guessing the most frequent token: {unigram:.0%}), and tells a true next span from a "
        "random one {nsp:.0%} of the time.",
        "在未参与训练的剧本上，它把被遮住的词元排在第一位的比例为 {top1:.0%}，排进前 5 的比例为 {top5:.0%}"
        "（总是猜最常见的词元：{unigram:.0%}），区分真正的下一段与随机一段的准确率为 {nsp:.0%}。",
    ),
    "bert.device.cpu": ("a CPU", " CPU "),
    "bert.device.gpu": ("one GPU", "一块 GPU "),
    # the paper's BERT beside ours
    "bert.pvh.shape": ("Layers / hidden size / heads", "层数 / 隐藏层大小 / 头数"),
    "bert.pvh.shape.paper": (
        "Base: 12 / 768 / 12 · Large: 24 / 1024 / 16",
        "Base：12 / 768 / 12 · Large：24 / 1024 / 16",
    ),
    "bert.pvh.params": ("Parameters", "参数量"),
    "bert.pvh.params.paper": ("110 M (Base), 340 M (Large)", "1.1 亿（Base），3.4 亿（Large）"),
    "bert.pvh.params.here": ("{params:.2f} M", "{params:.2f} 百万"),
    "bert.pvh.len": ("Longest input", "最长输入"),
    "bert.pvh.len.paper": ("512 tokens", "512 个词元"),
    "bert.pvh.len.here": ("{max_len} tokens", "{max_len} 个词元"),
    "bert.pvh.vocab": ("Vocabulary", "词表"),
    "bert.pvh.vocab.paper": ("WordPiece, 30,000 tokens", "WordPiece，30,000 个词元"),
    "bert.pvh.vocab.here": (
        "WordPiece, {vocab:,} tokens, lower-cased, learnt on the plays",
        "WordPiece，{vocab:,} 个词元，小写，在剧本上学得",
    ),
    "bert.pvh.norm": ("LayerNorm", "LayerNorm 位置"),
    "bert.pvh.norm.paper": (
        "after each sub-layer, LayerNorm(x + Sublayer(x)); one on the summed embeddings; none after the last block",
        "每个子层之后，LayerNorm(x + Sublayer(x))；求和后的嵌入上一个；最后一个块之后没有",
    ),
    "bert.pvh.norm.post": ("the same (post-LN)", "相同（后置 LayerNorm）"),
    "bert.pvh.norm.pre": (
        "before each sub-layer, x + Sublayer(LayerNorm(x)) (pre-LN); one on the embeddings and a final one",
        "每个子层之前，x + Sublayer(LayerNorm(x))（前置）；嵌入上一个，最后再加一个",
    ),
    "bert.pvh.masking": ("Masked language model", "掩码语言模型"),
    "bert.pvh.masking.paper": (
        "15% of the tokens; of those 80% [MASK], 10% a random token, 10% unchanged",
        "15% 的词元；其中 80% 换成 [MASK]，10% 换成随机词元，10% 保持不变",
    ),
    "bert.pvh.masking.here": (
        "the same rates, each token chosen independently",
        "比例相同，每个词元独立地被选中",
    ),
    "bert.pvh.nsp": ("Next-sentence prediction", "下一句预测"),
    "bert.pvh.nsp.paper": (
        "B is the actual next sentence 50% of the time, a random sentence from the corpus 50%",
        "B 有 50% 是真正的下一句，50% 是语料中随机的一个句子",
    ),
    "bert.pvh.nsp.here": (
        "B is the span that follows A 50% of the time, a span from another play 50%",
        "B 有 50% 是紧跟 A 的片段，50% 是另一部剧中的片段",
    ),
    "bert.pvh.data": ("Training data", "训练数据"),
    "bert.pvh.data.paper": (
        "BooksCorpus (800 M words) and English Wikipedia (2,500 M words)",
        "BooksCorpus（8 亿词）和英文维基百科（25 亿词）",
    ),
    "bert.pvh.data.here": ("Shakespeare, 37 works", "莎士比亚的 37 部作品"),
    "bert.pvh.training": ("Training", "训练"),
    "bert.pvh.training.paper": (
        "1,000,000 steps of 256 sequences; Base: 4 days on 4 Cloud TPUs",
        "1,000,000 步，每步 256 条序列；Base：在 4 个 Cloud TPU 上训练 4 天",
    ),
    "bert.pvh.training.here": (
        "{steps:,} steps of {batch} sequences; {minutes:.0f} minutes on {device}",
        "{steps:,} 步，每步 {batch} 条序列；在{device}上训练 {minutes:.0f} 分钟",
    ),
    "bert.pvh.result": ("Headline result", "主要结果"),
    "bert.pvh.result.paper": (
        "after fine-tuning: GLUE score 80.5 (Large); SQuAD v1.1 test F1 up to 93.2",
        "微调后：GLUE 得分 80.5（Large）；SQuAD v1.1 测试集 F1 最高 93.2",
    ),
    "bert.pvh.result.here": (
        "held-out plays: masked token ranked first {top1:.0%}, in the top 5 {top5:.0%}; next-sentence accuracy "
        "{nsp:.0%}; no fine-tuning",
        "留出剧本上：被遮词元排第一 {top1:.0%}，进前 5 {top5:.0%}；下一句预测准确率 {nsp:.0%}；没有微调",
    ),
    "bert.pvh.dep.size": (
        "Far smaller: {layers} layers of width {dim}, inputs of at most {max_len} tokens, a {vocab:,}-token "
        "WordPiece learnt on the plays.",
        "规模小得多：{layers} 层，宽度 {dim}，输入最多 {max_len} 个词元，在剧本上学得的 {vocab:,} 词元 WordPiece。",
    ),
    "bert.pvh.dep.pre_ln": (
        "This checkpoint puts LayerNorm before each sub-layer and adds a final one (pre-LN), where BERT normalises "
        "after each residual add (post-LN).",
        "这个检查点把 LayerNorm 放在每个子层之前，并在最后再加一个"
        "（前置 LayerNorm），而 BERT 是在每次残差相加之后归一化"
        "（后置 LayerNorm）。",
    ),
    "bert.pvh.dep.masking": (
        "Each token is chosen for masking independently with probability 15%; the paper's code picks a fixed "
        "count, 15% of a sequence's tokens.",
        "每个词元独立地以 15% 的概率被选中遮盖；论文的代码则按固定数目选取，即序列词元数的 15%。",
    ),
    "bert.pvh.dep.nsp": (
        "NSP pairs are spans of the plays, not sentences, and NotNext spans always come from another play; "
        "{short:.0%} of the pairs are shorter than the maximum (BERT's code: 10%).",
        "下一句预测的句子对是剧本片段而不是句子，NotNext 片段总是来自另一部剧；{short:.0%} 的句子对短于最大长度"
        "（BERT 的代码为 10%）。",
    ),
    "bert.pvh.dep.rest": (
        "Learned positions start from the sinusoidal table instead of random numbers; no dropout (the paper: 0.1).",
        "可学习的位置嵌入从正弦表而不是随机数开始；没有 dropout（论文为 0.1）。",
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
    # a real checkpoint (bert-base-uncased), picked at the top of the page
    "bert.real.note": (
        "You are probing **{title}**, Google's released model, converted into our BERT class: {layers} layers × "
        "{heads} heads, width {dim}, a lower-cased WordPiece of {vocab:,} pieces, pre-trained on BooksCorpus and "
        "English Wikipedia. It reads up to {max_len} tokens; here at most {read_len}, so that its attention maps stay "
        "readable. The examples are Shakespeare's, written for our model: modern English works as well.",
        "你正在探查 **{title}**：Google 发布的模型，已转换进我们的 BERT 类。{layers} 层 × {heads} 个头，宽度 {dim}，"
        "小写 WordPiece 词表共 {vocab:,} 个词片，在 BooksCorpus 和英文维基百科上预训练。它最多读 {max_len} 个词元；"
        "这里最多给它 {read_len} 个，好让注意力图看得清。示例是为我们的模型准备的莎士比亚句子，现代英语同样可以。",
    ),
    "bert.try.see.real": (
        "With *thou* its best guesses are {thou_top}; with *you* they are {you_top}.",
        "用 *thou* 时，它的最佳猜测是 {thou_top}；用 *you* 时则是 {you_top}。",
    ),
    "bert.a.help.real": (
        "Up to 200 characters. Write [MASK] to hide a token yourself. The vocabulary is lower-cased English "
        "WordPiece; characters it lacks become [UNK].",
        "最多 200 个字符。可以直接写 [MASK] 来遮住一个词元。词表是小写英文 WordPiece，词表中没有的字符会变成 [UNK]。",
    ),
    "bert.m.is_next.real": (
        "The next-sentence head on [CLS]: how sure the model is that B really followed A (with the masks applied). "
        "The paper reports 97–98% accuracy on its own held-out pairs; a single pair's number is still only a hint.",
        "[CLS] 上的下一句预测头：模型认为 B 确实紧跟在 A 之后的概率（在当前遮盖下）。论文报告它在留出句子对上的"
        "准确率为 97–98%；单个句子对的数值仍然只能当作参考。",
    ),
    "bert.m.is_next.none": (
        "This checkpoint was saved without its next-sentence head, so it has no opinion here.",
        "这个检查点保存时没有带下一句预测头，所以这里没有数值。",
    ),
    "bert.nsp.none": (
        "This checkpoint was saved without its next-sentence head (pooler and classifier): there is nothing to "
        "show here. The masked-language-model views above and the other views work as usual.",
        "这个检查点保存时没有带下一句预测头（pooler 和分类器）："
        "这里没有可显示的内容。上面的掩码语言模型和其他视图照常可用。",
    ),
    "bert.nsp.real": (
        "**What to look for.** The examples are held-out Shakespeare pairs written for our model: a true "
        "continuation and a span from another play. Swapped, the Othello pair scores {swapped:.0%} here: NSP's "
        "NotNext pairs were random sentences, never swapped ones, so the order is not what it learnt to check. "
        "RoBERTa (arXiv 1907.11692) later dropped NSP and did as well or better.",
        "**看什么。** 这些示例是为我们的模型准备的莎士比亚留出句子对：一对是真正的后续，一对来自另一部剧。把《奥赛罗》"
        "那一对对调后，这里得分为 {swapped:.0%}：下一句预测的 NotNext 样本是随机句子，从不是对调的句子，所以它没学过"
        "检查顺序。后来 RoBERTa（arXiv 1907.11692）去掉了下一句预测，效果持平甚至更好。",
    ),
    "bert.pvh.len.real": (
        "{max_len} tokens (this page gives it at most {read_len})",
        "{max_len} 个词元（本页最多给它 {read_len} 个）",
    ),
    "bert.pvh.vocab.real": ("WordPiece, {vocab:,} tokens, lower-cased", "WordPiece，{vocab:,} 个词元，小写"),
    "bert.pvh.nsp.real": ("the same head, as released", "相同，随模型发布的预测头"),
    "bert.pvh.nsp.none": ("not in this checkpoint (saved without the head)", "此检查点中没有（保存时未带该预测头）"),
    "bert.pvh.real.same": ("the same: these are the released weights", "相同：这就是发布的权重"),
    "bert.pvh.dep.real": (
        "None: the released weights, converted into our class and equal to Hugging Face transformers' forward pass; "
        "only the input is capped here.",
        "没有：这是发布的权重，转换进我们的类，与 Hugging Face transformers 的前向计算结果一致；这里只限制了输入长度。",
    ),
    "bert.explain.real": (
        "**Why masking.** A language model that predicts the next word can only look left: if it also saw the "
        "right, the answer would be in its input. BERT ([arXiv:1810.04805](https://arxiv.org/abs/1810.04805)) "
        "hides 15% of the tokens and predicts those instead, so every layer may attend both ways; the attention "
        "view shows weight on both sides of the diagonal, where a decoder has none.\n\n"
        "**What you see.** Top-k guesses and attention of {title} ({millions:.0f} million parameters, "
        "{layers} layers × {heads} heads), computed now on this machine. Every section reads the same model code as "
        "our small BERT; only the weights differ.\n\n"
        "**More to try:** switch the model picker back to ours with the same sentence, and compare the guesses and "
        "the head grid.",
        "**为什么要遮盖。** 预测下一个词的语言模型只能往左看：如果它也能看到右边，答案就在它的输入里了。"
        "BERT（[arXiv:1810.04805](https://arxiv.org/abs/1810.04805)）把 15% 的词元遮住，改为预测它们，"
        "于是每一层都可以双向注意；在注意力视图中，对角线两侧都有权重，而解码器的右侧全为零。\n\n"
        "**你看到的是什么。** {title}（{millions:.0f} 百万参数，{layers} 层 × {heads} 个头）的前 k 个猜测和注意力，"
        "都是现在在本机上算出的。每一部分都用与我们的小 BERT 相同的模型代码，只是权重不同。\n\n"
        "**还可以试试：** 用同一个句子把模型切换回我们的，比较猜测和注意力头网格。",
    ),
    "bert.error.specials": (
        "The tokenizer of {name} lacks {tokens}, which this page needs.",
        "{name} 的分词器缺少本页需要的 {tokens}。",
    ),
    "bert.error.unknown_real": (
        "Every token of sentence {which} is [UNK]: the model's vocabulary has none of its characters.",
        "句子 {which} 的每个词元都是 [UNK]：模型的词表里没有其中任何字符。",
    ),
    "bert.error.real_tokens": (
        "The pair has {n} tokens with [CLS] and [SEP]; on a real model this page reads at most {max}, so that its "
        "attention maps stay readable. Shorten a sentence.",
        "加上 [CLS] 和 [SEP]，这对句子共有 {n} 个词元；在真实模型上本页最多读 {max} 个，"
        "好让注意力图看得清。请缩短句子。",
    ),
    "bert.intro.real": (
        "BERT — an encoder that reads the whole sentence in both directions — pre-trained to fill in hidden tokens "
        "(the **masked language model**) and to tell whether segment B follows segment A (**next-sentence "
        "prediction**). Here it is Google's released model. Click word pieces to hide them (or type [MASK]) and see "
        "what the model guesses for each.",
        "BERT——双向读取整句话的编码器——预训练时补全被遮住的词元（**掩码语言模型**），并判断 B 段是否紧接在 A 段之后"
        "（**下一句预测**）。这里用的是 Google 发布的模型。点击词片把它遮住（或直接输入 [MASK]），看看模型对每个位置的"
        "猜测。",
    ),
    # knock-outs (app/bert/knockout.py)
    "bert.ko.title": ("Knock out a part of the model", "敲除模型的一部分"),
    "bert.ko.caption": (
        "Run the same masked input again with one head, or a whole layer's attention or MLP, switched off, and see "
        "how well the model still fills in the masked words.",
        "把同一个遮住词的输入再跑一遍，但关掉一个头，或某一层的整个注意力或 MLP，看看模型还能不能补全被遮住的词。",
    ),
    "bert.ko.none": (
        "No masked word to score: mask a word piece above (a typed [MASK] has no right answer).",
        "没有可评分的遮住词：请在上面遮住一个词片（直接输入的 [MASK] 没有正确答案）。",
    ),
    "bert.ko.m.loss": ("Loss on the masked words, {what} out", "遮住词上的损失（敲除 {what}）"),
    "bert.ko.m.loss.help": (
        "Mean −log p(right word) in nats over the {n} masked position(s), plain → knocked out.",
        "{n} 个遮住位置上 −log p(正确词) 的平均值（奈特），原始 → 敲除后。",
    ),
    "bert.ko.m.p": ("p(“{word}”)", "p(“{word}”)"),
    "bert.ko.m.top": ("Top guess for “{word}”, knocked out", "敲除后对“{word}”的首选"),
    "bert.ko.m.top.help": (
        "The most likely piece at the first masked position once the part is knocked out.",
        "敲除该部分后，第一个遮住位置上最可能的词片。",
    ),
    "bert.ko.p": ("p(right word)", "p(正确词)"),
    "bert.ko.read": (
        "Grey: the plain run; red: the part knocked out. Where red is far below grey, the part carried what that word "
        "needs from the rest of the sentence.",
        "灰色：原始运行；红色：敲除该部分后。红色远低于灰色的地方，说明这部分携带了该词需要从句子其余部分获得的信息。",
    ),
    "bert.ko.read.ours": (
        "On the default sentence, our model needs the attention of its first two layers: knock out layer 0's or "
        "layer 1's attention and the masked “to” gets much harder; layer 2's or 3's, and it hardly changes.",
        "在默认句子上，我们的模型依赖前两层的注意力：敲除层 0 或层 1 的注意力，被遮住的“to”就难猜得多；"
        "敲除层 2 或层 3 的注意力，几乎没有变化。",
    ),
}
