"""Every string the lessons show (the Lessons page, a stop's banner, the exercises, the worksheets), in English and
简体中文."""

STRINGS = {
    "lessons.intro": (
        "Three paths through the papers, in reading order. Each stop opens a page already set up, with one task at "
        "the top; every page ends with an exercise that the model itself checks. Your progress stays in this browser.",
        "三条按阅读顺序穿过论文的路线。每一站打开一个已设置好的页面，顶部有一项任务；每个页面末尾都有一道由模型本身批改"
        "的练习。你的进度只保存在这个浏览器里。",
    ),
    "lessons.legend": (
        "✓ stop seen · ★ its exercise solved",
        "✓ 已到过的站 · ★ 已解出该页练习",
    ),
    "lessons.privacy": (
        "Progress is one cookie in your browser (`te_lessons`): no account, nothing kept on the server.",
        "进度是浏览器里的一个 cookie（`te_lessons`）：无需账号，服务器上不保存任何东西。",
    ),
    "lessons.reset": ("Reset my progress", "清除我的进度"),
    "lessons.reset.help": (
        "Forget the stops seen and the exercises solved, in this browser.",
        "在这个浏览器里忘掉已到过的站和已解出的练习。",
    ),
    "lessons.stop_of": ("stop {n} of {total}", "第 {n} 站，共 {total} 站"),
    "lessons.previous": ("← Previous stop", "← 上一站"),
    "lessons.next": ("Next stop →", "下一站 →"),
    "lessons.done": ("End of the path: all lessons", "路线终点：全部课程"),
    "lessons.continue": ("Go on", "继续"),
    "lessons.progress.title": ("Your progress", "你的进度"),
    "lessons.progress.path": ("{path}: {line}", "{path}：{line}"),
    "lessons.progress.line": (
        "{seen} of {stops} stops seen · {solved} of {total} exercises solved",
        "已到 {seen}/{stops} 站 · 已解 {solved}/{total} 道练习",
    ),
    "lessons.exercise": ("Exercise", "练习"),
    "lessons.answer": ("Your answer", "你的答案"),
    "lessons.answer.placeholder": ("Choose an answer", "选择一个答案"),
    "lessons.check": ("Check with the model", "用模型批改"),
    "lessons.pick": ("Choose an answer first.", "请先选择一个答案。"),
    "lessons.unavailable": (
        "This exercise needs a model that is not installed here; the page above says how to get it.",
        "这道练习需要的模型本机没有安装；上面的页面说明了如何获取。",
    ),
    "lessons.ws.title": (
        "Worksheet for instructors: the tasks, the questions, a link to each stop, and an answer key the live model "
        "computes when you download it.",
        "给教师的练习单：任务、问题、每一站的链接，以及下载时由运行中的模型算出的参考答案。",
    ),
    "lessons.ws.md": ("Markdown · {language}", "Markdown · {language}"),
    "lessons.ws.html": ("Printable HTML · {language}", "可打印 HTML · {language}"),
    "lessons.ws.task": ("Task:", "任务："),
    "lessons.ws.answer_line": ("Answer:", "答案："),
    "lessons.ws.key": ("Answer key", "参考答案"),
    "lessons.ws.key.note": (
        "Computed from the live model when this sheet was downloaded, at the settings each stop opens with (where "
        "an answer says it reads a model's card, from numbers measured when that model was trained).",
        "下载本练习单时，由运行中的模型在每一站打开时的设置下算出（注明取自模型卡的答案，用的是该模型训练时测得的"
        "数字）。",
    ),
    # ---- the paths
    "lessons.path.scratch.title": ("Attention from scratch", "从零理解注意力"),
    "lessons.path.scratch.blurb": (
        "From one attention map to the three ways of using the same block: decoder only (GPT, then read through a "
        "dictionary of features), encoder only (BERT), "
        "encoder–decoder (T5); then the memory of the previous segment, which reaches past the context "
        "(Transformer-XL), and the same encoder reading an image cut into patches (ViT).",
        "从一张注意力图出发，到同一个模块的三种用法：只有解码器（GPT，再透过一本特征字典来读它）、只有编码器（BERT）、编码器–解码器（T5）；"
        "再到越过上下文长度的上一片段的记忆（Transformer-XL），以及读取切成图块的图像的同一种编码器（ViT）。",
    ),
    "lessons.path.efficient.title": ("How LLMs got efficient", "大模型如何变高效"),
    "lessons.path.efficient.blurb": (
        "What changed inside the block to make models cheaper to train and to run: rotary positions, sparse experts, "
        "attention that never writes the N × N matrix, shared and windowed key/value heads, a compressed cache, and "
        "a model with no attention at all.",
        "为了让模型训练和运行更便宜，模块内部改了什么：旋转位置编码、稀疏专家、从不写出 N × N 矩阵的注意力、"
        "共享与滑动窗口的键/值头、压缩的缓存，以及完全没有注意力的模型。",
    ),
    "lessons.path.reasoning.title": ("From pre-training to reasoning", "从预训练到推理"),
    "lessons.path.reasoning.blurb": (
        "A model trained to predict the next token and the step at which it learns to copy, the base model "
        "DeepSeek-R1 was trained from (DeepSeek-V3, which "
        "also learns to predict the token after next), how big to make a model for a budget, how preferences and "
        "rewards reshape what it writes, and why writing the steps helps it solve longer problems.",
        "一个被训练来预测下一个词元的模型及它学会复制的那一步，DeepSeek-R1 的训练起点 DeepSeek-V3（它还学着预测下下个"
        "词元），给定预算"
        "模型该做多大，偏好与奖励如何改变它写出的内容，以及为什么写出步骤能帮它解更长的问题。",
    ),
    # ---- the tasks, one per stop
    "lessons.task.scratch.attention": (
        "The model reverses its input. Step through the decoding and watch the cross-attention: at each output "
        "step, which input character does it read? Then compare the scaled and unscaled dot products.",
        "这个模型把输入倒过来写。逐步解码并观察交叉注意力：每个输出步读的是哪个输入字符？再比较缩放与不缩放的点积。",
    ),
    "lessons.task.scratch.forward": (
        "Follow one token through the whole network: embedding, each block's attention and MLP, the final "
        "unembedding. Which step changes the top guess most?",
        "跟着一个词元走完整个网络：嵌入、每个模块的注意力与 MLP、最后的反嵌入。哪一步最大地改变了首选猜测？",
    ),
    "lessons.task.scratch.gpt": (
        "A random sequence shown twice: the second copy is easy, because some head looks back to what followed the "
        "same token last time. Find that induction head, then answer the exercise at the bottom.",
        "一段随机序列出现两次：第二遍很容易，因为某个头会回看上次同一词元之后是什么。找到这个归纳头，再做页面底部的练习。",
    ),
    "lessons.task.reasoning.gpt_training": (
        "The same induction head, watched while it forms: this small GPT's training was recorded. Slide the training "
        "step and find where the repeat suddenly becomes easy, then answer the exercise at the bottom.",
        "还是归纳头，这次看它如何形成：这个小 GPT 的训练过程被记录了下来。拖动训练步，找到重复段突然变容易的地方，"
        "再做页面底部的练习。",
    ),
    "lessons.task.scratch.features": (
        "The same GPT read through a dictionary of features. Type a speaker's line such as “BRUTUS.” into the text, "
        "pick a token of the name and open its features; find one whose held-out evidence is characters' names, then "
        "answer the exercise at the bottom.",
        "透过一本特征字典来读同一个 GPT。在文本里输入一行说话人，如“BRUTUS.”，选中名字里的一个词元并打开它的特征；"
        "找一个留出证据都是角色名字的特征，再做页面底部的练习。",
    ),
    "lessons.task.scratch.bert": (
        "BERT sees both sides of a gap. Mask words by clicking them and read its guesses; find one it fills in right "
        "and one it gets wrong, then check at the bottom.",
        "BERT 能看到空位两边。点选可点选的词把它遮住，并查看它的猜测；找一个它填对的、一个它填错的，再到底部批改。",
    ),
    "lessons.task.scratch.t5": (
        "Every task is text in, text out. Pick a task and a layer, and see where the decoder's cross-attention "
        "looks in the input while it writes.",
        "每个任务都是输入文本、输出文本。选一个任务和一层，看解码器写作时交叉注意力落在输入的哪里。",
    ),
    "lessons.task.scratch.txl": (
        "The memory of the previous segment lets the model read past its own segment. Compare the loss with and "
        "without the memory, and find out why the memory needs relative positions.",
        "上一片段的记忆让模型能读到本片段之前的内容。比较有无记忆时的损失，并弄清为什么记忆需要相对位置。",
    ),
    "lessons.task.scratch.vit": (
        "The same encoder on an image: a digit cut into patches, each patch a token, and a [CLS] token whose state is "
        "classified. Watch which patches [CLS] attends to layer by layer, then answer the exercise at the bottom.",
        "同一种编码器用在图像上：一个数字被切成图块，每个图块是一个词元，再加一个其状态用来分类的 [CLS] 词元。"
        "逐层看 [CLS] 关注哪些图块，再做页面底部的练习。",
    ),
    "lessons.task.efficient.rope": (
        "Rotate a query and a key by their positions: their dot product depends only on how far apart they are. "
        "Drag the position slider under the two circles and watch the slow and fast pairs turn.",
        "按位置旋转查询和键：它们的点积只取决于两者相距多远。拖动两个圆下方的位置滑块，看慢速和快速的维度对如何转动。",
    ),
    "lessons.task.efficient.moe": (
        "Each token goes to one expert, and each expert takes a fixed number of tokens: the rest are dropped. Find "
        "the smallest capacity factor that drops none, then check at the bottom.",
        "每个词元只去一个专家，每个专家只接收固定数量的词元：多出来的被丢弃。找出不丢任何词元的最小容量因子，再到底部批改。",
    ),
    "lessons.task.efficient.flash": (
        "FlashAttention computes exact attention in tiles that fit in fast memory. Set N and the memory M in the IO "
        "section and estimate how many times fewer slow-memory accesses it makes; check at the bottom.",
        "FlashAttention 分块计算精确的注意力，每块都放得进快速存储。在 IO 一节设置 N 和存储 M，估计它少了多少倍慢速"
        "存储访问；再到底部批改。",
    ),
    "lessons.task.efficient.llama": (
        "LLaMA's block: RMSNorm, SwiGLU, rotary positions, and grouped key/value heads. Compare the three siblings "
        "with 4, 2 and 1 key/value heads: how much smaller is the cache, and what does it cost?",
        "LLaMA 的模块：RMSNorm、SwiGLU、旋转位置和分组的键/值头。比较有 4、2、1 个键/值头的三个兄弟模型：缓存小了多少，"
        "代价是什么？",
    ),
    "lessons.task.efficient.mistral": (
        "Each layer attends to the last W tokens only, yet stacked layers reach further back. Find how far the "
        "influence of one input reaches through the layers.",
        "每层只关注最近的 W 个词元，但多层叠加能看得更远。找出一个输入的影响能穿过多少层传多远。",
    ),
    "lessons.task.efficient.mla": (
        "MLA caches one small latent per token instead of keys and values for every head. Read the measured cache "
        "of the four decoders and say which is smallest; check at the bottom.",
        "MLA 每个词元只缓存一个小的潜向量，而不是每个头的键和值。读出四个解码器实测的缓存大小，说出哪个最小；"
        "再到底部批改。",
    ),
    "lessons.task.efficient.mamba": (
        "No attention: a state of fixed size, updated with a step size Δ that depends on the input. Watch Δ jump on "
        "the tokens the model must remember.",
        "没有注意力：一个大小固定的状态，用随输入而变的步长 Δ 更新。看 Δ 在模型必须记住的词元上跳高。",
    ),
    "lessons.task.reasoning.gpt": (
        "Pre-training is next-token prediction. Generate from a prompt, then find the head that copies from earlier "
        "in the text — the start of learning in context.",
        "预训练就是预测下一个词元。从一个提示开始生成，再找出从前文复制的那个头——上下文学习的起点。",
    ),
    "lessons.task.reasoning.mla": (
        "DeepSeek-V3, the base model R1 was trained from, has a second head that predicts the token after next. In "
        "section 3, compare how often each head's first guess is right, and how many tokens a forward gives when "
        "the main model checks the second head's drafts. (The exercise below is the efficient path's.)",
        "DeepSeek-V3 是 R1 的训练起点，它有第二个头预测下下个词元。在“3 · 多词元预测”一节比较两个头的首选猜测"
        "各有多少是对的，以及主模型检验第二个头的草稿时每次前向能得到多少词元。（下面的练习与“大模型如何变高效”"
        "路线的相同。）",
    ),
    "lessons.task.reasoning.scaling": (
        "For a fixed compute budget, how many parameters and how many tokens? Move the budget and compare Kaplan's "
        "and Chinchilla's answers with our own runs.",
        "给定计算预算，该用多少参数、多少词元？移动预算，把 Kaplan 与 Chinchilla 的答案和我们自己的训练结果比较。",
    ),
    "lessons.task.reasoning.alignment": (
        "The same prompt answered by the fine-tuned, the PPO and the DPO policy, each scored by the reward model. "
        "Which one scores higher, and do the replies read better?",
        "同一个提示分别由微调、PPO 和 DPO 策略回答，每个回答由奖励模型打分。哪个分更高？回答读起来更好吗？",
    ),
    "lessons.task.reasoning.reasoning": (
        "Digit puzzles of k operations, answered at once or after writing each step. Predict where writing the "
        "steps stops helping, then check at the bottom.",
        "由 k 个运算组成的数字题，直接作答或先写出每一步。预测写步骤在哪里不再有帮助，再到底部批改。",
    ),
    # ---- the exercises
    "lessons.ex.gpt.q": (
        "Which head is the induction head on the repeated random sequence (section “In-context learning”, length "
        "and seed as set there)?",
        "在重复的随机序列上（“上下文学习”一节，长度和种子按那里的设置），哪个头是归纳头？",
    ),
    "lessons.ex.gpt.right": (
        "Right: its induction score is {score} — nearly all of its attention goes to the token after the earlier copy.",
        "正确：它的归纳分数是 {score}——几乎全部注意力都落在前一次出现之后的那个词元上。",
    ),
    "lessons.ex.gpt.hint": (
        "Not this one: its induction score is only {score}. Look at the grid of induction scores in the in-context "
        "section: one cell stands out.",
        "不是这个：它的归纳分数只有 {score}。看上下文学习一节的归纳分数网格：有一格特别突出。",
    ),
    "lessons.ex.gpt.key": (
        "{head} (induction score {score}; length {length}, seed {seed}).",
        "{head}（归纳分数 {score}；长度 {length}，种子 {seed}）。",
    ),
    "lessons.ex.gpt.step.q": (
        "At which kept training step has the induction head formed? Move the training step slider at the top to the "
        "first step at which some head's induction score (section “How it learnt”) is at least 0.3, then check.",
        "归纳头在哪个保存的训练步形成？把页首的训练步滑块移到第一个有头的归纳分数（“它是怎样学会的”一节）不低于 0.3 "
        "的训练步，然后批改。",
    ),
    "lessons.ex.gpt.step.right": (
        "Right: at step {step} the best head scores {score}; at the kept step before, {before}, the best scored {b}.",
        "正确：在训练步 {step}，最佳头的分数是 {score}；在它之前保存的训练步 {before}，最佳分数是 {b}。",
    ),
    "lessons.ex.gpt.step.early": (
        "Not yet: at step {step} the best head scores {score}, below {formed}. Slide later.",
        "还没有：在训练步 {step}，最佳头的分数是 {score}，低于 {formed}。往后拖。",
    ),
    "lessons.ex.gpt.step.late": (
        "It has formed by step {step} (best score {score}), but earlier kept steps may already reach {formed}. Slide "
        "back until it drops below.",
        "到训练步 {step} 时已经形成（最佳分数 {score}），但更早保存的训练步可能已达到 {formed}。往回拖，直到分数"
        "低于它。",
    ),
    "lessons.ex.gpt.step.key": (
        "Step {step}: the best head scores {score} (≥ {formed}); at the kept step before, {before}, it scored {b}.",
        "训练步 {step}：最佳头的分数为 {score}（≥ {formed}）；在它之前保存的训练步 {before}，分数为 {b}。",
    ),
    "lessons.ex.bert.q": (
        "Click at least two words to mask them so that BERT's first guess is right for one and wrong for another, "
        "then check.",
        "在可点选的词中至少点选两个把它们遮住，使 BERT 的首选猜测对其中一个正确、对另一个错误，然后批改。",
    ),
    "lessons.ex.bert.right": (
        "Right: it restores “{right}” but not “{wrong}”. It fills in what the words on both sides pin down, and "
        "guesses the rest.",
        "正确：它还原了“{right}”，却没还原“{wrong}”。两侧的词能确定的，它就填得出；其余的只能猜。",
    ),
    "lessons.ex.bert.none": (
        "Nothing is masked yet: click words in the row above the predictions.",
        "还没有遮住任何词：在预测上方点选可点选的词。",
    ),
    "lessons.ex.bert.no_right": (
        "BERT misses every masked word. Mask a short, frequent word too (“to”, “the”, “is”).",
        "BERT 把所有被遮住的词都猜错了。再遮一个短而常见的词（如 “to”、“the”、“is”）。",
    ),
    "lessons.ex.bert.no_wrong": (
        "BERT gets every masked word right. Mask a rarer word too, or one the context does not pin down.",
        "BERT 把所有被遮住的词都猜对了。再遮一个较少见的词，或上下文无法确定的词。",
    ),
    "lessons.ex.bert.key": (
        "Sentence A, one word piece masked at a time — first guess right: {hits}; wrong: {misses}.",
        "句子 A，每次遮一个词片——首选猜对：{hits}；猜错：{misses}。",
    ),
    "lessons.ex.features.q": (
        "Find a feature that fires on characters' names: put its number in the page's Feature box, then check. It "
        "counts when at least three quarters of its strongest held-out contexts (and at least 4 of them) box a token "
        "of a speaker's name — the upper-case line, such as “BRUTUS.”, that says who speaks next.",
        "找一个在角色名字上激活的特征：把它的编号填进页面上的“特征”框，然后批改。判定标准：它在留出剧本中最强的"
        "上下文里，至少四分之三（且至少 4 个）框出的词元属于说话人的名字——即标明下一位说话人的大写行，如“BRUTUS.”。",
    ),
    "lessons.ex.features.right": (
        "Right: {on} of feature {i}'s {n} strongest held-out contexts are on a speaker's name. Its evidence says "
        "“name of who speaks next”; whether that is all it does, its logit weights and an edit can tell you more.",
        "正确：特征 {i} 最强的 {n} 个留出上下文中，有 {on} 个落在说话人的名字上。它的证据表明“下一位说话人的名字”；"
        "它是否只做这件事，还要看它的 logit 权重和编辑的效果。",
    ),
    "lessons.ex.features.hint": (
        "Feature {i}: only {on} of its {n} strongest held-out contexts are on a speaker's name. Type a speaker's line "
        "such as “BRUTUS.” into the text, pick a token of the name, and try the features listed on it.",
        "特征 {i}：它最强的 {n} 个留出上下文中只有 {on} 个落在说话人的名字上。在文本里输入一行说话人，如“BRUTUS.”，"
        "选中名字里的一个词元，再试试它上面列出的特征。",
    ),
    "lessons.ex.features.few": (
        "Feature {i} fired on only {n} held-out tokens (at least {need} are needed to judge it): pick a feature that "
        "fires more often.",
        "特征 {i} 只在 {n} 个留出词元上激活过（至少要 {need} 个才能判断）：请选一个激活更频繁的特征。",
    ),
    "lessons.ex.features.none": (
        "Put a feature's number in the page's Feature box first.",
        "请先在页面的“特征”框里填入一个特征编号。",
    ),
    "lessons.ex.features.key": (
        "{count} features pass; the most frequent: {features} (label, contexts on a name / strongest contexts).",
        "共有 {count} 个特征符合；最常激活的几个：{features}（标签，落在名字上的上下文数 / 最强上下文数）。",
    ),
    "lessons.ex.moe.q": (
        "Set the capacity factor slider to the smallest value (step 0.05) at which no token is dropped in any layer, "
        "then check.",
        "把容量因子滑块调到不丢弃任何层中任何词元的最小值（步长 0.05），然后批改。",
    ),
    "lessons.ex.moe.low": (
        "At {cf}, {n} token–layer slots are still dropped: the busiest expert gets more tokens than its capacity. "
        "Raise the factor.",
        "在 {cf} 时仍有 {n} 个词元–层位置被丢弃：最忙的专家收到的词元超过了容量。调高因子。",
    ),
    "lessons.ex.moe.high": (
        "Nothing is dropped at {cf}, but nothing is dropped at {lower} either: go lower, every slot of spare "
        "capacity costs memory and compute.",
        "在 {cf} 时没有丢弃，但在 {lower} 时也没有：再调低，每个多余的容量位置都耗费内存和计算。",
    ),
    "lessons.ex.moe.zero": (
        "0 lifts the limit altogether (as Mixtral does), so nothing can be dropped; find the smallest real capacity.",
        "0 表示完全不设上限（Mixtral 的做法），自然不会丢弃；请找出最小的真实容量。",
    ),
    "lessons.ex.moe.right": (
        "Right: at {cf} no token is dropped, and one step lower some are. The capacity must fit the busiest expert, "
        "not the average one.",
        "正确：在 {cf} 时没有词元被丢弃，再低一步就会丢。容量必须容得下最忙的专家，而不是平均的专家。",
    ),
    "lessons.ex.moe.key": (
        "Top-{k}: {safe} (the stop's {cf} drops {n} token–layer slots).",
        "top-{k}：{safe}（本站的 {cf} 会丢弃 {n} 个词元–层位置）。",
    ),
    "lessons.ex.flash_attention.q": (
        "With N and M as set in the IO section, how many times fewer HBM reads and writes does FlashAttention make "
        "than standard attention?",
        "按 IO 一节设置的 N 和 M，FlashAttention 的 HBM 读写次数比标准注意力少多少倍？",
    ),
    "lessons.ex.flash_attention.band": ("{lo}× to {hi}× fewer", "少 {lo}× 到 {hi}×"),
    "lessons.ex.flash_attention.over": ("{lo}× fewer or more", "少 {lo}× 或更多"),
    "lessons.ex.flash_attention.right": (
        "Right: {ratio}× fewer at N = {n}, M = {m}. The N × N matrix never goes to HBM: K and V are read once, and "
        "Q and the output travel once per block of K and V.",
        "正确：在 N = {n}、M = {m} 时少 {ratio}×。N × N 矩阵从不写入 HBM：K、V 只读一次，"
        "Q 和输出对每块 K、V 各往返一次。",
    ),
    "lessons.ex.flash_attention.hint": (
        "Not quite. Compare the two counts in the IO section at N = {n}, M = {m}: standard attention reads and "
        "writes the N × N matrix; FlashAttention reads K and V once, and Q and the output once per block of K and V.",
        "不太对。比较 IO 一节在 N = {n}、M = {m} 时的两个计数：标准注意力要读写 N × N 矩阵；FlashAttention 只读一次 "
        "K、V，Q 和输出则对每块 K、V 各读写一次。",
    ),
    "lessons.ex.flash_attention.key": (
        "At N = {n}, M = {m}: {std} vs {flash} accesses, {ratio}× fewer.",
        "N = {n}、M = {m} 时：{std} 对 {flash} 次访问，少 {ratio}×。",
    ),
    "lessons.ex.mla.q": (
        "Of our four decoders (MHA, GQA, MQA, MLA), which one's cache, measured after a forward pass, is smallest "
        "for 256 tokens?",
        "在我们的四个解码器（MHA、GQA、MQA、MLA）中，前向之后实测的缓存，哪个在 256 个词元时最小？",
    ),
    "lessons.ex.mla.right": (
        "Right: {kind} holds {kib} KiB for 256 tokens — one latent per token and layer, plus the small shared "
        "rotary key.",
        "正确：{kind} 在 256 个词元时占 {kib} KiB——每个词元每层一个潜向量，加一个小的共享旋转键。",
    ),
    "lessons.ex.mla.hint": (
        "{kind} holds {kib} KiB for 256 tokens; one of the others holds less. Look at the measured bytes in the "
        "cache table.",
        "{kind} 在 256 个词元时占 {kib} KiB；另一个更少。看缓存表里实测的字节数。",
    ),
    "lessons.ex.mla.key": (
        "{best}. Measured for {n} tokens: {rows}.",
        "{best}。{n} 个词元时的实测：{rows}。",
    ),
    "lessons.ex.reasoning.q": (
        "On the accuracy curves of the model's card (measured on held-out puzzles when it was trained), from how "
        "many operations k on is writing the steps first (chain of thought) no longer more accurate than answering "
        "at once?",
        "在模型卡的准确率曲线上（训练时在留出题目上测得），从多少个运算 k 开始，先写出步骤（思维链）不再比直接作答"
        "更准确？",
    ),
    "lessons.ex.reasoning.k": ("k = {k}", "k = {k}"),
    "lessons.ex.reasoning.never": ("It always helps", "总是有帮助"),
    "lessons.ex.reasoning.right": (
        "Right: there it gets {cot} against {direct} answering at once. It was trained on chains of at most "
        "{trained} operations; its written steps break down on longer ones.",
        "正确：在那里它的准确率是 {cot}，直接作答是 {direct}。它训练时的链条最多 {trained} 个运算；更长的链条上，"
        "它写出的步骤就崩溃了。",
    ),
    "lessons.ex.reasoning.hint": (
        "At k = {k}, writing the steps still wins: {cot} against {direct}. Read the two accuracy curves further right.",
        "在 k = {k} 时写步骤仍然更好：{cot} 对 {direct}。沿两条准确率曲线再往右看。",
    ),
    "lessons.ex.reasoning.hint_never": (
        "Look at the two accuracy curves at the largest k: does the chain-of-thought line stay above?",
        "看两条准确率曲线在最大 k 处：思维链那条还在上面吗？",
    ),
    "lessons.ex.reasoning.key": (
        "k = {k}. Accuracy with steps / at once, from the model's card (measured when it was trained, not now): "
        "{pairs}.",
        "k = {k}。写步骤 / 直接作答的准确率，取自模型卡（训练时测得，而非现在）：{pairs}。",
    ),
}

STRINGS |= {
    "lessons.ex.attention.q": (
        "At the decoding step set on the page (the step slider), which input character does the last layer's "
        "cross-attention, averaged over its heads, weigh most?",
        "在页面上设置的解码步（步骤滑块），最后一层的交叉注意力（各头平均）最看重哪个输入字符？",
    ),
    "lessons.ex.attention.option": ("position {i}: “{char}”", "位置 {i}：“{char}”"),
    "lessons.ex.attention.right": (
        "Right: at step {step} it puts {w} of its weight on position {i} (“{char}”) — the character it is about to "
        "copy, counted from the end.",
        "正确：步 {step} 把 {w} 的权重放在位置 {i}（“{char}”）上——正是它要从末尾数着抄写的那个字符。",
    ),
    "lessons.ex.attention.hint": (
        "That position gets {got} of the weight. To reverse, output step s must read the input s places from the "
        "end: look at the bright cell in the cross-attention row of this step.",
        "这个位置只得到 {got} 的权重。要倒着写，输出步 s 必须读离末尾 s 个位置的输入：看这一步交叉注意力那一行里"
        "最亮的格子。",
    ),
    "lessons.ex.attention.key": (
        "On “{text}”, step {step}: position {i} (“{char}”), weight {w}.",
        "在 “{text}” 上，步 {step}：位置 {i}（“{char}”），权重 {w}。",
    ),
    "lessons.ex.forward_pass.q": (
        "At the last token of the text, which part of the network adds the most to the logit of the predicted next "
        "token (direct logit attribution)?",
        "在文本的最后一个词元处，网络的哪一部分对预测的下一个词元的 logit 贡献最大（直接 logit 归因）？",
    ),
    "lessons.ex.forward_pass.token": ("the token embedding", "词元嵌入"),
    "lessons.ex.forward_pass.position": ("the position embedding", "位置嵌入"),
    "lessons.ex.forward_pass.attn": ("attention of layer {layer} (all heads)", "层 {layer} 的注意力（所有头）"),
    "lessons.ex.forward_pass.mlp": ("MLP of layer {layer}", "层 {layer} 的 MLP"),
    "lessons.ex.forward_pass.right": (
        "Right: it adds {logit} to the logit of “{piece}”, more than any other part.",
        "正确：它给 “{piece}” 的 logit 加了 {logit}，比其他任何部分都多。",
    ),
    "lessons.ex.forward_pass.hint": (
        "That part adds {got}; another adds {logit} to “{piece}”. In the attribution bars at the end of the page each "
        "head is a bar of its own: add up a layer's heads to get its attention, then compare the sums with the MLP "
        "bars. (A real model pools its smallest parts into one bar.)",
        "这一部分加了 {got}；另一部分给 “{piece}” 加了 {logit}。页面末尾的归因条形图里每个头各占一条："
        "把一层的各头相加得到该层的注意力，再与各 MLP 条比较。（真实模型把最小的部分合成一条。）",
    ),
    "lessons.ex.forward_pass.key": (
        "{part}: +{logit} to the logit of “{piece}” (last token).",
        "{part}：给 “{piece}” 的 logit 加 {logit}（最后一个词元）。",
    ),
    "lessons.ours_only": (
        "This question is about our {name} model, not the model picked at the top of the page. Switch the page back "
        "to ours to answer it.",
        "这道题问的是我们自己的 {name} 模型，而不是页面顶部选中的模型。把页面换回我们的模型再作答。",
    ),
    "lessons.use_ours": ("Switch the page to our {name}", "把页面换成我们的 {name}"),
    "lessons.ex.vit.q": (
        "On the held-out digit picked on the page, which patch does [CLS] attend to most in the last layer "
        "(mean over heads)?",
        "在页面上选的留出数字上，最后一层（各头平均）中 [CLS] 最关注哪个图块？",
    ),
    "lessons.ex.vit.option": ("row {row}, column {col}", "行 {row} · 列 {col}"),
    "lessons.ex.vit.right": (
        "Right: that patch gets {w} of [CLS]'s attention on this {digit}.",
        "正确：在这个 {digit} 上，这个图块得到 [CLS] {w} 的注意力。",
    ),
    "lessons.ex.vit.hint": (
        "That patch gets {got}; the brightest one gets {w}. Set the layer slider to the last layer, the head to the "
        "mean, and read the overlay.",
        "这个图块得到 {got}；最亮的那个得到 {w}。把层滑块拉到最后一层、头选“平均”，再看叠加图。",
    ),
    "lessons.ex.vit.key": (
        "Held-out image {index} (a {digit}): row {row}, column {col}, weight {w}.",
        "留出图像 {index}（一个 {digit}）：行 {row} · 列 {col}，权重 {w}。",
    ),
    "lessons.ex.alignment.q": (
        "On the prompt as set on the page, whose reply does the reward model score highest?",
        "在页面上设置的提示上，奖励模型给谁的回答打分最高？",
    ),
    "lessons.ex.alignment.gpt": ("the base GPT", "基础 GPT"),
    "lessons.ex.alignment.sft": ("SFT", "SFT"),
    "lessons.ex.alignment.ppo": ("PPO", "PPO"),
    "lessons.ex.alignment.dpo": ("DPO", "DPO"),
    "lessons.ex.alignment.right": (
        "Right: {top}, the highest reward here. Remember that a high reward is what PPO optimised for, not proof "
        "that the reply is better.",
        "正确：{top}，这里最高的奖励。记住，高奖励是 PPO 优化的目标，并不证明回答更好。",
    ),
    "lessons.ex.alignment.hint": (
        "That reply scores {got}; the best scores {top}. Compare the reward column of the four replies.",
        "这个回答得 {got}；最高的得 {top}。比较四个回答的奖励一栏。",
    ),
    "lessons.ex.alignment.no_reward": (
        "The reward model is not installed here, so the replies have no reward to compare.",
        "本机没有安装奖励模型，回答没有可比较的奖励。",
    ),
    "lessons.ex.alignment.key": ("Rewards: {rows}.", "奖励：{rows}。"),
}

STRINGS |= {
    "lessons.ex.transformer_xl.q": (
        "Carrying the memory from the segment before: at which tokens of a segment does it lower the loss most?",
        "带上前一片段的记忆：它在一个片段中的哪些词元上降低损失最多？",
    ),
    "lessons.ex.transformer_xl.first": ("its first {n} tokens", "片段开头的 {n} 个词元"),
    "lessons.ex.transformer_xl.last": ("its last {n} tokens", "片段末尾的 {n} 个词元"),
    "lessons.ex.transformer_xl.right": (
        "Right: the memory saves {first} nats a token at the first {n} places and {last} at the last {n}. Without "
        "it, a segment's first tokens have almost no context; its last tokens have the segment itself.",
        "正确：记忆在前 {n} 个位置每个词元省下 {first} 奈特，在最后 {n} 个位置省下 {last}。没有记忆时，片段开头的"
        "词元几乎没有上下文；片段末尾的词元还有本片段可看。",
    ),
    "lessons.ex.transformer_xl.hint": (
        "Not so: {first} nats saved at the first {n} places against {last} at the last {n}. Look at the loss by place "
        "in the segment, with and without the memory.",
        "不对：前 {n} 个位置省下 {first} 奈特，最后 {n} 个位置省下 {last}。看按片段内位置画的损失，"
        "有记忆与无记忆两条。",
    ),
    "lessons.ex.transformer_xl.key": (
        "{which}: {first} nats a token saved at the start, {last} at the end.",
        "{which}：片段开头每个词元省下 {first} 奈特，末尾省下 {last}。",
    ),
    "lessons.ex.mistral.q": (
        "At the position set in the reach section, how far back does the last layer's state depend on the input?",
        "在“影响范围”一节设置的位置上，最后一层的状态依赖多远之前的输入？",
    ),
    "lessons.ex.mistral.tokens": ("{n} tokens back", "往回 {n} 个词元"),
    "lessons.ex.mistral.all": ("back to the first token", "一直到第一个词元"),
    "lessons.ex.mistral.right": (
        "Right: {n} tokens back from position {pos}. Each of the {L} layers adds at most W − 1 = {W} − 1 tokens, so "
        "the reach is at most {bound}, however long the text.",
        "正确：从位置 {pos} 往回 {n} 个词元。{L} 层中每层最多多看 W − 1 = {W} − 1 个词元，所以无论文本多长，影响范围"
        "至多 {bound}。",
    ),
    "lessons.ex.mistral.hint": (
        "Not quite: one layer sees W − 1 = {W} − 1 tokens back, and each further layer can pass on what its window "
        "saw. Read the influence map's last row.",
        "不太对：一层能看到往回 W − 1 = {W} − 1 个词元，往上的每一层都能把自己窗口里看到的再传下去。"
        "看影响图的最后一行。",
    ),
    "lessons.ex.mistral.key": (
        "From position {pos}: {n} tokens back (at most {L} × (W − 1) with W = {W}).",
        "从位置 {pos}：往回 {n} 个词元（至多 {L} × (W − 1)，W = {W}）。",
    ),
    "lessons.ex.scaling.q": (
        "At the compute budget set on the slider, which law spends it on the most training tokens per parameter?",
        "在滑块设置的计算预算下，哪条定律为每个参数分配的训练词元最多？",
    ),
    "lessons.ex.scaling.right": (
        "Right: at {c} FLOPs, {best} asks for {ratio} tokens per parameter. Move the budget: the laws disagree by "
        "orders of magnitude, and ours is fitted on tiny runs.",
        "正确：在 {c} FLOPs 时，{best} 要求每个参数 {ratio} 个词元。移动预算看看：几条定律相差几个数量级，而我们的拟合"
        "来自很小的训练。",
    ),
    "lessons.ex.scaling.hint": (
        "That law asks for {got} tokens per parameter at {c} FLOPs; another asks for more. Divide D by N in the three "
        "columns.",
        "这条定律在 {c} FLOPs 时要求每个参数 {got} 个词元；另一条要求更多。在三栏里用 D 除以 N。",
    ),
    "lessons.ex.scaling.key": (
        "At {c} FLOPs: {best}. Tokens per parameter: {rows}.",
        "在 {c} FLOPs 时：{best}。每个参数的词元数：{rows}。",
    ),
    "lessons.ex.llama.q": (
        "In which layer do two query heads that share a key/value head attend most alike, compared with two that "
        "read different ones?",
        "在哪一层，共用一个键/值头的两个查询头，比读不同键/值头的两个查询头注意得更相像？",
    ),
    "lessons.ex.llama.right": (
        "Right: there heads sharing a key/value head overlap {within}, heads reading different ones {across}. "
        "Sharing the keys pulls the patterns together; their queries still differ.",
        "正确：在那一层，共用键/值头的头重叠 {within}，读不同键/值头的重叠 {across}。共用键让注意力模式靠拢，但查询"
        "仍各不相同。",
    ),
    "lessons.ex.llama.hint": (
        "In that layer the overlap is {got_within} within a group against {got_across} across: a smaller gap than "
        "elsewhere. Move the layer slider of the heads section and read the overlap metric (within / across).",
        "那一层组内重叠 {got_within}，组间 {got_across}：差距比别处小。"
        "拖动“头”一节的层滑块，读重叠指标（组内 / 组间）。",
    ),
    "lessons.ex.llama.key": (
        "{layer}. Overlap within / across groups, by layer: {rows}.",
        "{layer}。按层的组内 / 组间重叠：{rows}。",
    ),
}

STRINGS |= {
    "lessons.ex.rope.q": (
        "With d, the base and the seed set on the page, which scores q_m·k_n depend only on the offset m − n "
        "(the same all along each diagonal of the matrix)?",
        "按页面上设置的 d、底数和种子，哪种得分 q_m·k_n 只取决于偏移 m − n（矩阵每条对角线上处处相同）？",
    ),
    "lessons.ex.rope.rope": ("RoPE's", "RoPE 的"),
    "lessons.ex.rope.absolute": ("the sinusoidal table's, added to q and k", "把正弦表加到 q 和 k 上的"),
    "lessons.ex.rope.both": ("both", "两者都是"),
    "lessons.ex.rope.neither": ("neither", "两者都不是"),
    "lessons.ex.rope.right": (
        "Right: RoPE's scores stray from their diagonal's mean by {rope} (float32 rounding), the added table's by "
        "{absolute}. Rotating q by mθ and k by nθ leaves only (m − n)θ in their dot product.",
        "正确：RoPE 的得分偏离所在对角线均值 {rope}（float32 舍入），加表的偏离 {absolute}。把 q 转 mθ、k 转 nθ，"
        "点积里只剩下 (m − n)θ。",
    ),
    "lessons.ex.rope.hint": (
        "Not so: the largest distance from a diagonal's mean is {rope} with RoPE and {absolute} with the table added. "
        "Compare the two score matrices side by side.",
        "不对：与对角线均值的最大偏离，RoPE 是 {rope}，加表是 {absolute}。并排比较两个得分矩阵。",
    ),
    "lessons.ex.rope.key": (
        "{which} (largest distance from a diagonal's mean: RoPE {rope}, table added {absolute}).",
        "{which}（与对角线均值的最大偏离：RoPE {rope}，加表 {absolute}）。",
    ),
    "lessons.ex.t5.q": (
        "For the head picked for the bias matrix, at which offset key − query is the encoder's learned bias largest?",
        "对于偏置矩阵选中的头，编码器学到的偏置在哪个偏移（键 − 查询）处最大？",
    ),
    "lessons.ex.t5.offset": ("offset {offset}", "偏移 {offset}"),
    "lessons.ex.t5.far": ("farther than {n} either way", "两侧都超过 {n}"),
    "lessons.ex.t5.right": (
        "Right: encoder head {head} adds the most to keys at offset {offset}. One learned number per bucket of "
        "offsets, shared by all layers, replaces the position embeddings.",
        "正确：编码器头 {head} 给偏移 {offset} 处的键加得最多。每个偏移桶一个学到的数、所有层共用，代替了位置嵌入。",
    ),
    "lessons.ex.t5.hint": (
        "Not there: head {head}'s bias peaks at offset {offset}. Read that head's line in the encoder's learned-bias "
        "curves: its highest point.",
        "不在那里：头 {head} 的偏置峰值在偏移 {offset}。看编码器学到的偏置曲线里这个头的那条线：它的最高点。",
    ),
    "lessons.ex.t5.key": (
        "Head {head}: {offset}. Peak offset of every encoder head: {peaks}.",
        "头 {head}：{offset}。每个编码器头的峰值偏移：{peaks}。",
    ),
    "lessons.ex.mamba.q": (
        "Selective copying, layer 0, the instance of the page's seed: what share of the step size Δ's movement "
        "falls on the letters to remember (and the positions right after them)?",
        "选择性复制、层 0、页面种子对应的实例：步长 Δ 的变化有多大比例落在要记住的字母（及紧随其后的位置）上？",
    ),
    "lessons.ex.mamba.band": ("{lo} % to {hi} %", "{lo}% 到 {hi}%"),
    "lessons.ex.mamba.right": (
        "Right: {share} of Δ's movement, on {where} of the positions. Δ is a function of the input: it opens the "
        "state to the letters and lets the noise between them pass.",
        "正确：Δ 的变化有 {share} 落在只占 {where} 的位置上。Δ 是输入的函数：它为字母打开状态，让中间的噪声滑过。",
    ),
    "lessons.ex.mamba.hint": (
        "Not quite: these positions are {where} of the sequence, but Δ moves far more there than elsewhere. Read "
        "the Δ map of layer 0 against the letters.",
        "不太对：这些位置只占序列的 {where}，但 Δ 在那里的变化远多于别处。对照字母看层 0 的 Δ 图。",
    ),
    "lessons.ex.mamba.key": (
        "Seed {seed}: {share} of Δ's movement near the letters, which are {where} of the positions.",
        "种子 {seed}：Δ 的变化有 {share} 在字母附近，而这些位置占 {where}。",
    ),
}
