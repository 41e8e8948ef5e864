"""Strings of the GPT page (GPT-1 2018, GPT-2 2019, GPT-3 2005.14165)."""

STRINGS = {
    "gpt.intro": (
        "A decoder-only Transformer with {params:.1f} million parameters, trained here on Shakespeare's plays to "
        "predict the next token. Type a prompt: you see what it expects next, how sampling reshapes that "
        "expectation, what it writes, and what each layer and head does on the way.",
        "一个 {params:.1f} 百万参数的仅解码器 Transformer，"
        "在这里用莎士比亚的剧本训练，任务是预测下一个词元。输入一段提示："
        "你会看到模型对下一个词元的预测、采样如何改变这个分布、"
        "它续写出的文字，以及每一层、每个注意力头在其中做了什么。",
    ),
    # guided experiment
    "gpt.try.do": (
        "Choose the view *In-context learning* below: a sequence of random tokens, shown twice. Then change the "
        "sequence seed or the number of tokens.",
        "在下方选择*上下文学习*视图：一段随机词元序列，重复两遍。然后换一个序列种子，或改变词元数。",
    ),
    "gpt.try.see": (
        "Whatever the tokens, the loss on the first copy is higher than a blind uniform guess (ln {vocab:,} ≈ "
        "{uniform:.1f} nats), and on the repeat it falls close to 0; one head, {lh}, scores near 1 and its map "
        "shows a stripe just right of the second diagonal.",
        "无论是哪些词元，第一遍的损失都高于盲目的均匀猜测（ln {vocab:,} ≈ {uniform:.1f} 奈特），而重复时的损失接近 0；"
        "有一个头（{lh}）的得分接近 1，它的注意力图在第二条对角线右侧显出一道条纹。",
    ),
    "gpt.try.why": (
        "Nothing can predict random tokens the first time. The second time, an **induction head** finds where the "
        "current token appeared before and copies the token that followed it: the model learns from its context "
        "with no weight update — the simplest kind of the in-context learning that GPT-3 showed at scale.",
        "随机词元第一次出现时，什么都无法预测。第二次，**归纳头**找到当前词元之前出现的位置，并复制当时紧随其后的词元："
        "模型不更新任何权重就从上下文中学习——这是 GPT-3 在大规模上展示的上下文学习中最简单的一种。",
    ),
    "gpt.prompt": ("Prompt", "提示词"),
    "gpt.prompt.short": ("Prompt", "提示词"),
    "gpt.prompt.help": (
        "Any text of up to {tokens} tokens (and {chars} characters). Our model only knows Shakespeare's English; "
        "other scripts still encode, byte by byte. Tip: end without a trailing space — most tokens start with one.",
        "任意文本，最多 {tokens} 个词元（且不超过 {chars} 个字符）。我们的模型只学过莎士比亚的英语；"
        "其他文字也能编码，只是按字节拆开。"
        "提示：结尾不要加空格——大多数词元本身就以空格开头。",
    ),
    "gpt.examples": ("Examples", "示例"),
    "gpt.m.tokens": ("Prompt tokens", "提示词词元数"),
    "gpt.m.tokens.help": (
        "BPE tokens of the prompt. The model also reads an <|endoftext|> token in front of them.",
        "提示词的 BPE 词元数。模型在它们前面还会读入一个 <|endoftext|> 词元。",
    ),
    "gpt.m.top": ("Most likely next token", "最可能的下一个词元"),
    "gpt.m.top_p": ("Its probability", "其概率"),
    "gpt.m.entropy": ("Entropy (bits)", "熵（比特）"),
    "gpt.m.entropy.help": (
        "How spread out the next-token distribution is: 0 bits = certain; log₂ {vocab:,} = {bits:.1f} bits = uniform.",
        "下一个词元分布的分散程度：0 比特表示完全确定；log₂ {vocab:,} = {bits:.1f} 比特表示均匀分布。",
    ),
    "gpt.next.title": ("Next-token distribution", "下一个词元的分布"),
    "gpt.probability": ("probability", "概率"),
    "gpt.sampling.title": ("Sampling: temperature, top-k, top-p", "采样：温度、top-k、top-p"),
    "gpt.sampling.caption": (
        "Grey bars: the model's distribution. Blue bars: what sampling actually draws from after the temperature "
        "and the cuts; red bars were cut. The line is the cumulative probability at this temperature; top-p keeps "
        "the smallest set of tokens whose total reaches the dashed line.",
        "灰色柱：模型给出的原始分布。蓝色柱：经过温度调整和截断之后，采样真正使用的分布；红色柱表示被截掉的词元。"
        "折线是当前温度下的累计概率；top-p 保留累计概率达到虚线所需的最少词元。",
    ),
    "gpt.temperature": ("Temperature", "温度"),
    "gpt.temperature.help": (
        "Divides the logits before the softmax. Below 1 sharpens, above 1 flattens; 0 means greedy (always the top "
        "token).",
        "在 softmax 之前用它去除 logits。小于 1 使分布更尖锐，大于 1 使分布更平坦；"
        "0 表示贪心解码（总是选概率最高的词元）。",
    ),
    "gpt.top_k": ("Top-k (0 = off)", "Top-k（0 = 关闭）"),
    "gpt.top_k.help": ("Keep only the k most likely tokens.", "只保留概率最高的 k 个词元。"),
    "gpt.top_p": ("Top-p (nucleus)", "Top-p（核采样）"),
    "gpt.top_p.help": (
        "Keep the smallest set of most likely tokens whose probabilities add up to at least p (Holtzman et al. "
        "2019). 1 = off.",
        "保留概率之和至少为 p 的最少一组高概率词元（Holtzman 等，2019）。1 表示关闭。",
    ),
    "gpt.seed": ("Seed", "随机种子"),
    "gpt.seed.help": ("The same seed and settings always give the same text.", "相同的种子和设置总会得到相同的文本。"),
    "gpt.n": ("Tokens to generate", "生成的词元数"),
    "gpt.m.kept": ("Tokens left to sample from", "可供采样的词元数"),
    "gpt.m.kept.help": ("Out of {vocab:,} in the vocabulary.", "词表共 {vocab:,} 个词元。"),
    "gpt.m.entropy_before": ("Entropy before (bits)", "调整前的熵（比特）"),
    "gpt.m.entropy_after": ("Entropy after (bits)", "调整后的熵（比特）"),
    "gpt.before": ("model (temperature 1)", "模型原始分布（温度 1）"),
    "gpt.after": ("sampled from", "实际采样分布"),
    "gpt.cumulative": ("cumulative, at this temperature", "当前温度下的累计概率"),
    "gpt.nucleus": ("nucleus", "核"),
    "gpt.generate": ("Generate (stream the tokens)", "生成（逐个词元流式输出）"),
    "gpt.continuation": ("Continuation", "续写"),
    "gpt.not_generated": (
        "Nothing generated yet: press Generate to write a continuation with these settings.",
        "尚未生成：点击“生成”，用当前设置续写。",
    ),
    "gpt.made_with": (
        "temperature {temperature:.2f}, top-k {top_k}, top-p {top_p:.2f}, seed {seed}, {n} tokens, {backend}",
        "温度 {temperature:.2f}、top-k {top_k}、top-p {top_p:.2f}、种子 {seed}、{n} 个词元、{backend}",
    ),
    "gpt.current": ("Made with the current settings: {made_with}.", "用当前设置生成：{made_with}。"),
    "gpt.stale": (
        "Out of date: made with {made_with}, from the prompt shown above it. Press Generate for the current settings.",
        "已过时：由 {made_with}，从上面显示的提示生成。点击“生成”以使用当前设置。",
    ),
    "gpt.m.generated": ("Generated tokens", "已生成词元数"),
    "gpt.m.tps": ("Tokens per second", "每秒词元数"),
    "gpt.m.tps.help": (
        "Measured while decoding, sampling included. Press Generate to measure again; switch the KV cache off and "
        "generate again to compare.",
        "解码时实测（包括采样）。点击“生成”可重新测量；关闭 KV 缓存再生成一次即可比较。",
    ),
    "gpt.m.tps.vs": ("×{ratio:.2g} the speed of {other}", "是{other}速度的 {ratio:.2g} 倍"),
    "gpt.m.decoding": ("Decoding", "解码方式"),
    "gpt.kv_cache": ("KV cache", "KV 缓存"),
    "gpt.no_cache": ("full re-read", "整段重算"),
    "gpt.cache.help": (
        "On: each new token is fed alone and attends to the keys and values kept from earlier tokens. Off: the whole "
        "sequence is read again for every new token. Same model, same compiled step, same tokens — only the work "
        "differs.",
        "开：每个新词元单独输入，注意力读取之前词元保存下来的键和值。关：每生成一个词元都把整段序列重新读一遍。"
        "模型、编译好的解码步骤和生成的词元都相同——只有计算量不同。",
    ),
    "gpt.m.decoding.help": (
        "Both backends decode with one call per token: torch through a traced graph of the decoding step, onnx "
        "through an exported one (decode.onnx) whose inputs and outputs include the cache. With the cache a new "
        "token costs one new row of attention; without it, the whole square again.",
        "两个后端都是每个词元调用一次：torch 用追踪（trace）得到的解码步骤计算图，onnx 用导出的 decode.onnx，"
        "其输入和输出都包含缓存。有缓存时每个新词元只需计算注意力的新一行；没有缓存则要把整个方阵重算一遍。",
    ),
    "gpt.index.help": ("Layers and heads are counted from 0.", "层和头都从 0 开始编号。"),
    "gpt.view": ("Look inside", "深入查看"),
    "gpt.view.tokens": ("Tokenisation", "分词"),
    "gpt.view.attention": ("Causal attention", "因果注意力"),
    "gpt.view.lens": ("Logit lens", "Logit 透镜"),
    "gpt.view.icl": ("In-context learning", "上下文学习"),
    "gpt.view.knockout": ("Knock out", "敲除"),
    "gpt.view.patching": ("Activation patching", "激活修补"),
    # knock-outs (models/interventions.py)
    "gpt.ko.caption": (
        "Run the model again with one part switched off, and compare. The sequence is the in-context-learning "
        "view's ({length} random tokens shown twice, seed {seed}); the page's induction head, {lh}, is chosen first.",
        "让模型在关掉某一部分的情况下再跑一遍，然后比较。所用序列与“上下文学习”视图相同（{length} 个随机词元重复两遍，"
        "种子 {seed}）；默认选中本页的归纳头 {lh}。",
    ),
    "gpt.ko.m.repeat": ("Loss on the repeat, {what} out", "重复部分的损失（敲除 {what}）"),
    "gpt.ko.m.repeat.help": (
        "Mean loss (nats) over the second copy, plain → knocked out. The induction head is what makes it small.",
        "第二遍的平均损失（奈特），原始 → 敲除后。让它变小的正是归纳头。",
    ),
    "gpt.ko.m.first": ("Loss, first copy", "第一遍的损失"),
    "gpt.ko.m.target": ("p(“{token}”) after the prompt", "提示词之后 p(“{token}”)"),
    "gpt.ko.m.target.help": (
        "The probability of the prompt's most likely next token, plain → knocked out. Knocked out, the top token "
        "is {top}.",
        "提示词最可能的下一个词元的概率，原始 → 敲除后。敲除后排第一的词元是 {top}。",
    ),
    "gpt.chat": ("Chat template", "对话模板"),
    "gpt.chat.help": (
        "Send the prompt as a user's turn in the model's own chat template (from its files), ending where its reply "
        "begins. An instruction-tuned model answers best that way; off, it continues the raw text.",
        "把提示词作为用户的一轮对话，套进模型自带（来自其文件）的对话模板，在它回复开始处结束。"
        "指令微调的模型这样回答得最好；关闭时，它接着原始文本往下写。",
    ),
    "gpt.stopped": (
        "Stopped after {n} tokens at {token}: the model ended its turn (or its text) there; what it would write "
        "next is no longer its reply.",
        "生成了 {n} 个词元后在 {token} 处停止：模型在那里结束了它的一轮（或文本）；之后再写的内容已不是它的回复。",
    ),
    "gpt.error.template": (
        "The model's chat template could not be applied: {why}",
        "无法套用模型的对话模板：{why}",
    ),
    "gpt.ko.read": (
        "Where the red line rises above the grey one on the right of the dotted line, the repeat got harder: the "
        "part you removed was needed to copy from the first copy.",
        "在虚线右侧，红线高出灰线的地方，重复部分变难了：被移除的部分正是从第一遍复制所需要的。",
    ),
    "gpt.ko.read.best": (
        "Measured on this model: knocking out {lh} ({mode}) moves the loss on the repeat from {before:.2f} to "
        "{after:.2f} nats, against {first:.2f} on the first copy, so it undoes {share:.0%} of what copying saved.",
        "在这个模型上测得：敲除 {lh}（{mode}）后，重复部分的损失从 {before:.2f} 变为 {after:.2f} 奈特，"
        "而第一遍是 {first:.2f}，即抵消了复制所省下的 {share:.0%}。",
    ),
    "gpt.ko.read.many": (
        "Most of the copying survives: other heads copy too, so no single head is the whole circuit here.",
        "大部分复制仍在：其他头也在复制，所以在这里没有哪个单独的头就是整个回路。",
    ),
    "gpt.ko.read.one": (
        "Most of the copying goes with it: on this sequence this head does most of the work.",
        "大部分复制随之消失：在这个序列上，主要的工作是这个头做的。",
    ),
    # activation patching
    "gpt.patch.caption": (
        "Two prompts of the same number of tokens (at most {max}): a clean one and a corrupted one. Each cell runs "
        "the corrupted prompt with the residual stream at one layer and one position copied from the clean run: "
        "activation patching between two prompts (as in Wang et al. 2022, 2211.00593). Causal tracing (Meng et al. "
        "2022, 2202.05262) is a variant on one prompt: it corrupts the subject's embeddings with Gaussian noise "
        "instead, then restores clean states.",
        "两个词元数相同的提示词（最多 {max} 个）：一个干净，一个被破坏。每个格子运行被破坏的提示词，"
        "但把某一层、某一位置的残差流换成干净运行中的值：这是两个提示词之间的激活修补（如 Wang 等 2022，"
        "2211.00593）。因果追踪（Meng 等 2022，2202.05262）是只用一个提示词的变体：它改为给主语的嵌入加高斯噪声来"
        "破坏，再恢复干净的状态。",
    ),
    "gpt.patch.clean": ("Clean prompt", "干净的提示词"),
    "gpt.patch.corrupt": ("Corrupted prompt", "被破坏的提示词"),
    "gpt.patch.running": ("Patching layer by layer…", "逐层修补中…"),
    "gpt.patch.m.answer": ("Clean answer", "干净的答案"),
    "gpt.patch.m.answer.help": (
        "The token the clean prompt's repeat copies (the one after the last token's earlier occurrence); the "
        "corrupted prompt's copy is the other.",
        "干净提示词的重复部分要复制的词元（最后一个词元上次出现之后的那个）；被破坏的提示词会复制另一个。",
    ),
    "gpt.patch.m.wrong": ("Corrupted answer", "被破坏的答案"),
    "gpt.patch.m.ld": ("Logit difference, clean / corrupted", "logit 差，干净 / 被破坏"),
    "gpt.patch.m.ld.help": (
        "logit(clean answer) − logit(corrupted answer) at the last position, in each run.",
        "最后一个位置上 logit(干净答案) − logit(被破坏的答案)，两次运行各一个。",
    ),
    "gpt.patch.every": (
        "On this deep model the map patches the stream once every {step} layers, and the last ({rows} of {all} "
        "rows): each row is one batch of forward passes, and a CPU would take minutes for all of them.",
        "在这个较深的模型上，图中只隔 {step} 层修补一次残差流，外加最后一层（{all} 行中的 {rows} 行）："
        "每一行都是一批前向计算，全部算完在 CPU 上要好几分钟。",
    ),
    "gpt.patch.restored": ("restored", "恢复比例"),
    "gpt.patch.read": (
        "How to read it: 0 (white) = the corrupted run's logit difference, 1 (red) = the clean run's. A red cell "
        "says the stream at that layer and position alone carries what the clean answer needs. Positions are "
        "labelled clean/corrupted where the prompts differ. Follow the red from the answer's source position in "
        "the early layers to the last position in the late ones: that is where attention moved the information.",
        "读法：0（白）= 被破坏运行的 logit 差，1（红）= 干净运行的。"
        "红色格子表示仅该层该位置的残差流就带着干净答案所需的信息。"
        "两个提示词不同的位置标为“干净/被破坏”。顺着红色从前几层中答案的来源位置，走到后几层的最后一个位置："
        "那就是注意力搬运信息的路径。",
    ),
    # tokens
    "gpt.tok.m.bytes": ("UTF-8 bytes", "UTF-8 字节数"),
    "gpt.tok.m.per_token": ("Bytes per token", "每个词元的字节数"),
    "gpt.tok.m.byte_pieces": ("Single-byte tokens", "单字节词元"),
    "gpt.tok.m.byte_pieces.help": (
        "Tokens that are one raw byte: what the learnt merges did not cover. A Chinese character is three bytes, "
        "an emoji four, so text the tokenizer never saw falls apart into these.",
        "只包含一个原始字节的词元，即学到的合并规则没有覆盖的部分。一个汉字占 3 个字节，一个表情符号占 4 个字节，"
        "所以分词器没见过的文字会被拆成这样的单字节词元。",
    ),
    "gpt.tok.strip": ("Tokens, shaded by how many bytes each stands for", "词元，颜色深浅表示所含字节数"),
    "gpt.tok.bytes": ("{:.0f} bytes", "{:.0f} 字节"),
    "gpt.tok.col.pos": ("position", "位置"),
    "gpt.tok.col.token": ("token", "词元"),
    "gpt.tok.col.id": ("id", "编号"),
    "gpt.tok.col.bytes": ("bytes", "字节数"),
    "gpt.tok.col.hex": ("UTF-8 bytes (hex)", "UTF-8 字节（十六进制）"),
    "gpt.tok.caption": (
        "Byte-level BPE (GPT-2): the text becomes UTF-8 bytes, every byte value is a token of its own, and merges "
        "learnt on the training plays join frequent neighbours. Nothing is ever unknown. · marks a space, ↵ a line "
        "break, ‹e4 bd› bytes that are only part of a character.",
        "字节级 BPE（GPT-2）：文本先变成 UTF-8 字节，每个字节值本身就是一个词元，再用在训练剧本上学到的合并规则把常见的"
        "相邻片段合并。因此永远不会出现未知词元。· 表示空格，↵ 表示换行，‹e4 bd› 表示只是某个字符一部分的字节。",
    ),
    # attention
    "gpt.att.generated": ("Include the generated tokens", "包含生成的词元"),
    "gpt.att.m.last_looks": ("Last token looks most at", "最后一个词元最关注"),
    "gpt.att.m.self": ("Mean weight on itself", "对自身的平均权重"),
    "gpt.att.m.self.help": ("Average of the diagonal.", "对角线上的平均值。"),
    "gpt.att.caption": (
        "Each row is a query token; it can only attend to itself and earlier tokens (the causal mask), so the "
        "upper triangle is empty. Tokens marked ▸ were generated ({n} of them): the model read its own output.",
        "每一行是一个查询词元；它只能关注自己和之前的词元（因果掩码），所以右上三角是空的。标有 ▸ 的是生成的词元"
        "（共 {n} 个）：模型读入的是它自己的输出。",
    ),
    "gpt.att.grid": ("Every layer and head, last {n} tokens.", "所有层和头，最后 {n} 个词元。"),
    # logit lens
    "gpt.lens.embedding": ("embedding", "嵌入"),
    "gpt.lens.after": ("after block {layer}", "块 {layer} 之后"),
    "gpt.lens.position": ("position", "位置"),
    "gpt.lens.m.first": ("Final guess first on top", "最终预测首次排第一"),
    "gpt.lens.m.first.help": (
        "The earliest point in the residual stream where the model's final top next token (last position) is "
        "already the lens's top token.",
        "在残差流中，模型最终预测的下一个词元（最后一个位置）最早在哪一层已经是透镜读出的第一名。",
    ),
    "gpt.lens.m.final_prob": ("Its probability, layer by layer", "其概率（逐层）"),
    "gpt.lens.m.final_prob.help": (
        "Probability the lens gives the final top token, from the embedding to the last block.",
        "透镜给最终预测词元的概率，从嵌入层到最后一个块。",
    ),
    "gpt.lens.caption": (
        "The logit lens (nostalgebraist 2020): read the residual stream after each block through the final "
        "LayerNorm and the output embedding, as if the model stopped there. Each cell is the top next-token guess "
        "at that position, shaded by its probability. The last row is the model's real output.",
        "Logit 透镜（nostalgebraist，2020）：把每个块之后的残差流直接送入最终的 LayerNorm 和输出嵌入，"
        "就好像模型在那里停下。每个格子是该位置对下一个词元的首选猜测，颜色表示其概率。最后一行就是模型真正的输出。",
    ),
    # in-context learning
    "gpt.icl.repeat.title": (
        "A random sequence, shown twice",
        "一段随机序列，重复两遍",
    ),
    "gpt.icl.length": ("Random tokens in each copy", "每遍随机词元数"),
    "gpt.icl.seed": ("Sequence seed", "序列种子"),
    "gpt.icl.m.first": ("Loss, first copy (nats)", "第一遍的损失（奈特）"),
    "gpt.icl.note": (
        "The first copy costs {first:.2f} nats a token, {times:.1f} × a uniform guess (ln {vocab:,} ≈ "
        "{uniform:.2f}, dotted line): random tokens look nothing like Shakespeare, and the model, confident that "
        "English comes next, gives them far less than 1/{vocab:,}. Being sure and wrong costs more than knowing "
        "nothing. The repeat costs {second:.3f} nats a token: the model copies it from its context.",
        "第一遍每个词元的损失为 {first:.2f} 奈特，是均匀猜测（ln {vocab:,} ≈ {uniform:.2f}，点线）的 {times:.1f} 倍："
        "随机词元一点也不像莎士比亚，模型确信接下来是英语，给它们的概率远低于 1/{vocab:,}。自信地猜错，比一无所知的"
        "代价更大。重复时每个词元的损失只有 {second:.3f} 奈特：模型从上下文中把它复制了过来。",
    ),
    "gpt.icl.m.second": ("Loss, repeat (nats)", "重复时的损失（奈特）"),
    "gpt.icl.m.ratio": ("Repeat ÷ first", "重复 ÷ 第一遍"),
    "gpt.icl.m.ratio.help.dynamics": (
        "Loss on the repeat ÷ loss on the first copy; the first token of each copy is left out (nothing predicts "
        "it). At training step {step:,} the recorded run measured {card:.2%} (16 sequences of 20 random tokens after "
        "10 others); slide the training step to see it fall as the induction head forms.",
        "重复段损失 ÷ 首段损失；每段的第一个词元不计（没有什么能预测它）。在训练步 {step:,}，记录的训练测得 "
        "{card:.2%}（16 条序列，各 20 个随机词元，前有 10 个其他词元）；拖动训练步，可以看到它随归纳头形成而下降。",
    ),
    "gpt.icl.m.ratio.help": (
        "Loss on the repeat ÷ loss on the first copy; the first token of each copy is left out (nothing predicts "
        "it). Random tokens cannot be predicted the first time; a model that copies from its context predicts the "
        "repeat almost perfectly. The model card measures {card:.2%} over 64 sequences of 50 tokens; before its "
        "second training stage the model scored about 100% (no copying at all).",
        "重复时的损失 ÷ 第一遍的损失；每遍的第一个词元不计入（没有什么能预测它）。随机词元第一次出现时无法预测；"
        "会从上下文中复制的模型几乎能完美预测重复部分。模型卡在 64 条 50 个词元的序列上测得 {card:.2%}；"
        "在第二个训练阶段之前，这个模型约为 100%（完全不会复制）。",
    ),
    "gpt.icl.m.head": ("Top induction head", "归纳得分最高的头"),
    "gpt.icl.m.head.help": (
        "The head that attends most, on average, from a repeated token to the token that followed it the first "
        "time — the token to predict. An induction head scores near 1; a head that spreads its attention evenly "
        "scores about 1 / (number of tokens). Layers and heads are counted from 0.",
        "平均而言，从重复出现的词元指向它第一次出现时紧跟其后的词元（即要预测的词元）的注意力最强的头。"
        "归纳头的得分接近 1；把注意力平均分散的头约为 1 /（词元数）。层和头都从 0 开始编号。",
    ),
    "gpt.icl.m.score": ("Its induction score", "其归纳得分"),
    "gpt.icl.loss": ("loss (nats)", "损失（奈特）"),
    "gpt.icl.first": ("first copy", "第一遍"),
    "gpt.icl.uniform": ("uniform guess: {uniform:.2f} nats", "均匀猜测：{uniform:.2f} 奈特"),
    "gpt.icl.second": ("repeat", "重复"),
    "gpt.icl.scores": ("Induction score of every head", "每个头的归纳得分"),
    "gpt.icl.score": ("score", "得分"),
    "gpt.icl.stripe.caption": (
        "The attention of that head on the repeated sequence. An induction head lights the stripe one step right "
        "of the second diagonal: each repeated token looks at the token after its first copy, and copies it.",
        "该头在重复序列上的注意力。归纳头会点亮第二条对角线右侧一格处的条纹"
        "：每个重复的词元都看向它第一次出现时的下一个词元，并把它复制过来。",
    ),
    "gpt.icl.few.title": (
        "Few-shot prompts: what this small model can and cannot continue",
        "少样本提示：这个小模型能接续什么、不能接续什么",
    ),
    "gpt.icl.few.caption": (
        "GPT-3 picks up a task from a few examples in the prompt. This model continues a refrain it has seen in "
        'the plays ("my lord, my lord") and a list that exists only in the prompt — its induction head copies '
        "what followed the last time. But it copies tokens, it does not follow a pattern: commas in the list, or a "
        "dialogue whose answers alternate, still defeat it. Below, greedy decoding of 6 tokens.",
        "GPT-3 能从提示中的几个示例领会任务。这个模型能接续它在剧本里见过的叠句（“my lord, my lord”），"
        "也能接续只在提示中出现的列表——它的归纳头会复制上一次紧随其后的内容。但它复制的是词元，而不是在遵循模式："
        "列表里加上逗号，或者答句交替变化的对话，它仍然接不上。下面是 6 个词元的贪心解码结果。",
    ),
    "gpt.icl.few.pattern": ("Pattern", "模式"),
    "gpt.icl.few.list": ("repeated list", "重复的列表"),
    "gpt.icl.few.names": ("dialogue turns", "对话轮次"),
    "gpt.icl.few.refrain": ("refrain", "叠句"),
    "gpt.icl.few.m.continues": ("Continues the pattern", "接续了该模式"),
    "gpt.icl.few.m.expected": ("Expected", "期望"),
    "gpt.yes": ("yes", "是"),
    "gpt.no": ("no", "否"),
    # card
    "gpt.card.title": ("About this model", "关于这个模型"),
    "gpt.card.params": ("Parameters", "参数量"),
    "gpt.card.val_bpc": ("Held-out bits per character", "留出集每字符比特数"),
    "gpt.card.bigram": ("Bigram baseline (bits/char)", "二元语法基线（比特/字符）"),
    "gpt.card.induction": ("Induction loss ratio", "归纳损失比"),
    "gpt.card.caption": (
        "Data: {data}. Trained in {minutes:.0f} minutes on two CPU cores with `{command}`. Bits per character are "
        "measured on whole plays the model never saw: total loss ÷ characters ÷ ln 2.",
        "数据：{data}。使用 `{command}` 在两个 CPU 核心上训练了 {minutes:.0f} 分钟。每字符比特数是在模型从未见过的"
        "整部剧本上测得的：总损失 ÷ 字符数 ÷ ln 2。",
    ),
    # errors
    "gpt.train.title": ("How it learnt", "它是怎样学会的"),
    "gpt.train.none": (
        "The training of {name} was not recorded: its weights were kept only at the end.",
        "{name} 的训练没有被记录：只保存了最后的权重。",
    ),
    "gpt.train.none.real": (
        "{name} was trained elsewhere; only its final weights were released.",
        "{name} 是在别处训练的，只发布了最终权重。",
    ),
    "gpt.train.offer": (
        "The small model **gpt-induction** was trained here with every head measured along the way and its weights "
        "kept at {n} steps: pick it to watch its induction head form, and every view on this page then runs on the "
        "step you pick. Or train it yourself, below.",
        "小模型 **gpt-induction** 是在这里训练的，训练途中测量了每个头，并在 {n} 个训练步保存了权重：选择它即可看到"
        "归纳头如何形成，本页的每个视图都会在你所选的训练步上运行。也可以在下面自己训练一次。",
    ),
    "gpt.train.open": ("Watch gpt-induction learn", "看 gpt-induction 学习"),
    "gpt.train.m.formed": ("Induction head formed at step", "归纳头形成于训练步"),
    "gpt.train.m.formed.help": (
        "The first measured step at which the best head's induction score reached half of its final value.",
        "最佳头的归纳分数首次达到其最终值一半的测量步。",
    ),
    "gpt.train.m.induction": ("Best induction score, this step", "本步最佳归纳分数"),
    "gpt.train.m.induction.help": (
        "Mean attention from each repeated token onto the token after its first occurrence, for the best head, on "
        "held-out random sequences shown twice: near 1 for an induction head.",
        "在留出的、出现两次的随机序列上，最佳头从每个重复词元到其首次出现之后那个词元的平均注意力：归纳头接近 1。",
    ),
    "gpt.train.m.ratio": ("Repeat ÷ first copy loss, this step", "本步重复段 ÷ 首段损失"),
    "gpt.train.m.ratio.help": (
        "The loss on the second copy of a random sequence divided by the loss on the first: 100% when the model "
        "cannot copy, near 0 when it copies.",
        "随机序列第二遍的损失除以第一遍的损失：不会复制时为 100%，会复制时接近 0。",
    ),
    "gpt.train.m.icl": ("In-context-learning score, this step", "本步上下文学习分数"),
    "gpt.train.m.icl.help": (
        "Loss at token {late} minus loss at token {early} of held-out text (each a mean over 5 neighbouring tokens; "
        "the paper uses tokens 500 and 50). Negative: later tokens, with more context before them, are predicted "
        "better.",
        "留出文本中第 {late} 个词元的损失减去第 {early} 个词元的损失（各取相邻 5 个词元的平均；论文用第 500 和第 50 "
        "个词元）。为负：后面的词元因前文更多而预测得更好。",
    ),
    "gpt.train.step": ("training step", "训练步"),
    "gpt.train.formed": ("formed · step {step:,}", "形成 · 步 {step:,}"),
    "gpt.train.fig.induction": ("Induction score of each head", "每个头的归纳分数"),
    "gpt.train.fig.prev": ("Previous-token score of each head", "每个头的前一词元分数"),
    "gpt.train.loss": ("training loss", "训练损失"),
    "gpt.train.first": ("first copy (held out)", "首段（留出）"),
    "gpt.train.repeat": ("repeat (held out)", "重复段（留出）"),
    "gpt.train.icl": ("in-context-learning score", "上下文学习分数"),
    "gpt.train.fig.loss": ("Loss (nats per token)", "损失（每词元 nat）"),
    "gpt.train.fig.icl": ("Loss late − loss early in a text", "文本靠后处损失 − 靠前处损失"),
    "gpt.train.here": (
        "**Here**, over {steps:,} steps ({minutes:.0f} minutes on one CPU thread): at step {before_step:,} the "
        "best head's induction score was {before_score:.2f} and the repeat of a random sequence cost "
        "{before_ratio:.0%} of its first copy (ICL score {before_icl:+.2f}); by step {after_step:,} {head} scored "
        "{after_score:.2f}, the repeat cost {after_ratio:.0%} and the ICL score was {after_icl:+.2f}. The head "
        "formed at step {formed:,}. Move the training step slider at the top to run every view of the page on "
        "the weights before and after.",
        "**在这里**，共训练 {steps:,} 步（在一个 CPU 线程上 {minutes:.0f} 分钟）：在训练步 {before_step:,}，"
        "最佳头的归纳分数是 {before_score:.2f}，随机序列重复段的损失是首段的 {before_ratio:.0%}（上下文学习分数 "
        "{before_icl:+.2f}）；到训练步 {after_step:,}，{head} 的分数为 {after_score:.2f}，重复段的损失降到 "
        "{after_ratio:.0%}，上下文学习分数为 {after_icl:+.2f}。归纳头形成于训练步 {formed:,}。拖动页首的训练步滑块，"
        "即可在形成前后的权重上运行本页的每个视图。",
    ),
    "gpt.train.icl.fell": (
        "As in the paper, the in-context-learning score fell as the head formed "
        "({before_icl:+.2f} → {after_icl:+.2f}).",
        "和论文一样，上下文学习分数随归纳头形成而下降（{before_icl:+.2f} → {after_icl:+.2f}）。",
    ),
    "gpt.train.icl.rose": (
        "Unlike the paper, the in-context-learning score on plain held-out text rose as the head formed "
        "({before_icl:+.2f} → {after_icl:+.2f}): every window this model trained on repeats a piece of itself, so "
        "late in a plain window it expects a copy that never comes. The paper's models learnt from ordinary text.",
        "与论文不同，在普通留出文本上，上下文学习分数随归纳头形成反而上升（{before_icl:+.2f} → {after_icl:+.2f}）："
        "这个模型训练时的每个窗口都有一段重复，所以在普通窗口的靠后位置，它会期待一段永远不会出现的重复。论文中的模型"
        "是在普通文本上训练的。",
    ),
    "gpt.train.paper": (
        "The paper (Olsson et al. 2022, arXiv 2209.11895) finds, in models of two layers and more, a phase change "
        "early in training: induction heads form, the in-context-learning score (loss of the 500th token minus the "
        "50th) falls sharply at the same time, and the training loss shows a bump; one-layer attention-only models, "
        "which cannot form an induction head, show none of it.",
        "论文（Olsson 等 2022，arXiv 2209.11895）发现：在两层及以上的模型中，训练早期会出现一次相变——归纳头形成，"
        "上下文学习分数（第 500 个词元的损失减去第 50 个）同时骤降，训练损失曲线上出现一个凸起；单层纯注意力模型"
        "无法形成归纳头，也没有这些现象。",
    ),
    "gpt.error.no_dynamics": (
        "{name} has no recorded training to show.",
        "{name} 没有可展示的训练记录。",
    ),
    "gpt.intro.dynamics": (
        "A two-layer GPT with {params:.2f} million parameters, trained here from scratch on windows of Shakespeare's "
        "plays, each with a piece of itself written again further on, while every head was measured; its weights "
        "were kept at {n} steps. You are "
        "looking at step {step:,} of {steps:,}: every view below runs on those weights. Its induction head formed "
        "at step {formed:,}.",
        "一个两层的 GPT，{params:.2f} 百万参数，在这里从零开始训练：莎士比亚剧本的文本窗口，每个窗口中有一段在后面"
        "重复出现，训练途中测量了每个头，"
        "并在 {n} 个训练步保存了权重。你现在看的是训练步 {step:,}（共 {steps:,} 步）：下面每个视图都在这组权重上运行。"
        "它的归纳头形成于训练步 {formed:,}。",
    ),
    "gpt.try.see.dynamics": (
        "At this step ({step:,}) the best head, {lh}, scores {score:.2f} and the repeat costs {ratio:.0%} of the "
        "first copy. Slide the training step before {formed:,} and no head copies: the repeat is about as hard as "
        "the first copy; after it, one head's map shows the stripe just right of the second diagonal.",
        "在本训练步（{step:,}），最佳头 {lh} 的分数为 {score:.2f}，重复段的损失是首段的 {ratio:.0%}。把训练步拖到 "
        "{formed:,} 之前，没有头会复制：重复段和首段差不多难；之后，有一个头的注意力图会在第二条对角线右侧出现条纹。",
    ),
    "gpt.pvh.data.dynamics": (
        "Shakespeare's training works, each step {batch} windows of {context} tokens, each with a piece of itself "
        "written again; {steps:,} steps",
        "莎士比亚训练集作品，每步 {batch} 个 {context} 词元的窗口，每个窗口中有一段重复出现；共 {steps:,} 步",
    ),
    "gpt.pvh.result.dynamics": (
        "at step {step:,}: held-out loss {loss:.2f} nats per token; repeat ÷ first copy {ratio:.0%}; its induction "
        "head formed at step {formed:,}",
        "训练步 {step:,}：留出集每词元损失 {loss:.2f} nat；重复段 ÷ 首段 {ratio:.0%}；归纳头形成于训练步 {formed:,}",
    ),
    "gpt.pvh.dep.dynamics": (
        "Trained for its training to be watched: small enough (a {vocab}-token BPE of its own, a {context}-token "
        "context) to form its induction head in minutes on a CPU; the shipped gpt forms its head only in a second "
        "stage, after an hour.",
        "为了观看训练过程而训练：足够小（自己的 {vocab} 词元 BPE，{context} 个词元的上下文），能在 CPU 上几分钟内形成"
        "归纳头；gpt 只在第二阶段（一小时后）才形成归纳头。",
    ),
    "gpt.explain.dynamics": (
        "**What to take away.** An induction head needs two heads in two layers: one that copies the previous "
        "token into each position (a previous-token head, the lower row of the first figure) and one that looks "
        "for the position whose previous token matches the current one and copies what followed it. The second is "
        "of no use before the first exists, so the previous-token head comes first; here it stood at "
        "{prev:.2f} when the induction head formed at step {formed:,} of {steps:,}. That order, and the fall of the "
        "repeat's loss as the second head forms, is the phase change Olsson et al. (arXiv 2209.11895) describe.",
        "**要点。** 归纳头需要两层里的两个头配合：一个把前一个词元的信息复制到每个位置（前一词元头，第一张图的下半"
        "部），另一个寻找“前一个词元与当前词元相同”的位置，并复制其后的词元。第一个头出现之前，第二个头毫无用处，"
        "所以前一词元头先出现；在这里，归纳头于 {steps:,} 步中的训练步 {formed:,} 形成时，前一词元分数已达 "
        "{prev:.2f}。这一先后顺序，以及第二个头形成时重复段损失的下降，就是 Olsson 等（arXiv 2209.11895）描述的相变。",
    ),
    "gpt.live.title": ("Train it yourself", "自己训练一次"),
    "gpt.live.intro": (
        "Train the same two-layer model from scratch, here and now: {steps:,} steps on one CPU core, stopped after "
        "{cap:.0f} minutes at most. Every head's scores and the losses arrive as it learns; its weights are kept every "
        "250 steps for the slider under the figures. Change the seed or the learning rate and see whether, and when, "
        "the induction head forms. One run trains at a time on this server; others wait in a queue.",
        "在这里从零训练同一个两层模型：在一个 CPU 核心上训练 {steps:,} 步，最多 {cap:.0f} 分钟后停止。每个头的分数"
        "和各项损失会随训练实时出现；每 250 步保存一次权重，供图下的滑块使用。换一个随机种子或学习率，看看归纳头是否"
        "形成、何时形成。本服务器一次只训练一个任务，其他任务排队等候。",
    ),
    "gpt.live.seed": ("Seed", "随机种子"),
    "gpt.live.lr": ("Learning rate", "学习率"),
    "gpt.live.start": ("Start training", "开始训练"),
    "gpt.live.cancel": ("Cancel", "取消"),
    "gpt.live.queued": (
        "Waiting: place {place} in the queue. Your run starts when the ones before it finish.",
        "等待中：队列位置 {place}。前面的任务完成后，你的任务就会开始。",
    ),
    "gpt.live.status.starting": ("Starting: encoding the plays…", "正在启动：编码剧本…"),
    "gpt.live.status.running": (
        "Step {step:,} of {steps:,} · {seconds:.0f} s",
        "训练步 {step:,} / {steps:,} · {seconds:.0f} 秒",
    ),
    "gpt.live.status.done": (
        "Done: {step:,} steps in {seconds:.0f} s.",
        "完成：{seconds:.0f} 秒内训练了 {step:,} 步。",
    ),
    "gpt.live.status.cancelled": (
        "Cancelled at step {step:,} after {seconds:.0f} s.",
        "已在训练步 {step:,}（{seconds:.0f} 秒后）取消。",
    ),
    "gpt.live.status.capped": (
        "Stopped at the time cap, at step {step:,} after {seconds:.0f} s.",
        "达到时间上限，已在训练步 {step:,}（{seconds:.0f} 秒后）停止。",
    ),
    "gpt.live.status.failed": ("The run failed: {error}", "训练失败：{error}"),
    "gpt.live.m.steps_s": ("Steps per second", "每秒训练步数"),
    "gpt.live.m.best": ("Best induction score now", "当前最佳归纳分数"),
    "gpt.live.not_yet": ("not yet", "尚未形成"),
    "gpt.live.snapshots.wait": (
        "The weights are kept every {every} steps; the step slider appears with the second snapshot.",
        "每 {every} 步保存一次权重；第二个快照到达后会出现训练步滑块。",
    ),
    "gpt.live.snapshot": ("Your run's weights at step", "你的训练在此训练步的权重"),
    "gpt.live.map": (
        "{head}, the best induction head at this step ({score:.2f})",
        "{head}：本训练步最佳归纳头（{score:.2f}）",
    ),
    "gpt.live.error.settings": (
        "Pick a seed from 0 to 9999 and one of the learning rates {rates}.",
        "请选择 0 到 9999 之间的随机种子，以及学习率 {rates} 之一。",
    ),
    "gpt.live.error.full": (
        "{n} runs are already waiting on this server. Try again when some have finished.",
        "本服务器已有 {n} 个任务在排队，请等部分任务完成后再试。",
    ),
    "gpt.live.error.gone": (
        "That run is no longer kept on the server: start a new one.",
        "服务器上已不再保存那次训练，请重新开始一次。",
    ),
    "gpt.error.empty": ("Type a prompt first.", "请先输入提示词。"),
    "gpt.error.too_long_chars": (
        "The prompt has {n} characters; at most {max} fit.",
        "提示词有 {n} 个字符，最多只能有 {max} 个。",
    ),
    "gpt.error.too_long_tokens": (
        "The prompt is {n} tokens long; at most {max} fit, to leave room for generation in the 256-token context. "
        "Text outside English uses many more tokens per character.",
        "提示词有 {n} 个词元，最多只能有 {max} 个，以便在 256 个词元的上下文中为生成留出空间。"
        "非英文文本每个字符会占用多得多的词元。",
    ),
    "gpt.error.n": ("Generate between 1 and {max} tokens.", "生成的词元数须在 1 到 {max} 之间。"),
    "gpt.error.patch_lengths": (
        "The clean prompt has {clean} tokens and the corrupted one {corrupted}: patching needs the same number. "
        "Change words for words of the same length in tokens.",
        "干净的提示词有 {clean} 个词元，被破坏的有 {corrupted} 个：修补需要两者数量相同。请用词元数相同的词替换。",
    ),
    "gpt.error.patch_long": (
        "{n} tokens: patching runs one batch per layer with one row per position, so here it reads at most {max}.",
        "{n} 个词元：修补每层运行一批、每个位置一行，所以这里最多读取 {max} 个。",
    ),
    "gpt.error.patch_same": (
        "The two prompts give the model the same preference between the two answers: there is nothing to restore. "
        "Change the corrupted prompt more.",
        "两个提示词让模型在两个答案之间的偏好相同：没有可恢复的差别。请把被破坏的提示词改得更多一些。",
    ),
    "gpt.error.length": ("Choose between {min} and {max} random tokens.", "随机词元数须在 {min} 到 {max} 之间。"),
    # explanation
    "gpt.explain": (
        "**GPT-1** (Radford et al. 2018) took the Transformer's decoder alone — masked self-attention, no encoder, "
        "no cross-attention — pre-trained it to predict the next token on a corpus of books, then fine-tuned it for "
        "each task. **GPT-2** (2019) moved LayerNorm to the input of each sub-block and added a final LayerNorm "
        "after the last block, encoded text with byte-level BPE so that nothing is ever unknown, and showed that a "
        "large enough model does some tasks zero-shot, from the prompt alone. "
        "**GPT-3** ([arXiv:2005.14165](https://arxiv.org/abs/2005.14165)) grew to 175 billion parameters, with "
        "layers that alternate dense and locally banded sparse attention, and showed few-shot in-context learning: "
        "put a few examples in the prompt and the model continues the task, with no weight update.\n\n"
        "**What you see here.** A small model with GPT-2's layout ({layers} layers, {heads} heads, width {dim}, "
        "{vocab:,} BPE tokens, a {context}-token context), trained on Shakespeare for about {m1:.0f} minutes on a "
        "CPU (about {tokens:.0f} million tokens), then {m2:.0f} minutes more on text mixed with repeated "
        "sequences. On plays it never saw it needs {bpc:.2f} bits per character, better than a token bigram "
        "({bigram:.2f}). It writes text that *looks* like a play — speaker names, stage directions, verse lines — "
        "but loses the thread within a line or two. It knows no facts, does no arithmetic, follows no "
        "instructions, and meets Chinese or emoji (encoded byte by byte) with confusion.\n\n"
        "**How it learnt to copy from its context.** An *induction head* finds the earlier occurrence of the "
        "current token and predicts what followed it. It is not a large-model property: Olsson et al. 2022 "
        "([arXiv:2209.11895](https://arxiv.org/abs/2209.11895)) find induction heads in two-layer attention-only "
        "models, forming in a sudden phase change early in training. Ours formed none in its first training stage "
        "of plain text. A second stage kept training on text, mixed with sequences of random tokens shown twice "
        "and scored on the repeat — first at the start of the context, then after random tokens, then inside a "
        "passage of text, so that only a head that matches content can succeed. Now {lh} draws the stripe, and on "
        "the repeat the loss falls to about {ratio:.2%} of the first copy's. It copies what is in its context; it "
        "cannot pick up a new task from a few examples the way GPT-3 does.\n\n"
        "**More to try:** temperature 0 (greedy) and watch it loop; temperature 1.5 and watch it fall apart; "
        "top-p 0.5 and count the tokens left; the logit lens to see the prediction form over the layers.",
        "**GPT-1**（Radford 等，2018）只保留 Transformer 的解码器——带掩码的自注意力，没有编码器，也没有交叉注意力——"
        "先在图书语料上预训练预测下一个词元，再针对每个任务微调。**GPT-2**（2019）把 LayerNorm 移到每个子层的输入处，"
        "并在最后一个块之后加了一个最终的 LayerNorm；用字节级 BPE 编码文本，任何文本都不会出现未知词元；"
        "并表明足够大的模型仅凭提示就能零样本完成一些任务。"
        "**GPT-3**（[arXiv:2005.14165](https://arxiv.org/abs/2005.14165)）扩展到 1750 亿参数，各层交替使用稠密注意力和"
        "局部带状稀疏注意力，并展示了少样本上下文学习：在提示中放几个示例，模型就能接着完成任务，无需更新任何权重。\n\n"
        "**这里能看到什么。** 一个采用 GPT-2 结构的小模型（{layers} "
        "层，{heads} 个头，宽度 {dim}，{vocab:,} 个 BPE 词元，"
        "{context} 个词元的上下文），先在 CPU 上用莎士比亚文本训练了约 {m1:.0f} 分钟（约 {tokens:.0f} 百万个词元），"
        "再在混有重复序列的文本上训练了 {m2:.0f} 分钟。在从未见过的剧本上，它每个字符需要 {bpc:.2f} 比特，"
        "优于词元二元语法模型（{bigram:.2f}）。它写出的文字*看起来*像剧本——角色名、舞台指示、诗行——"
        "但一两行之后就失去了线索。它不懂事实，不会算术，不会听从指"
        "令，遇到中文或表情符号（按字节编码）时会不知所措。\n\n"
        "**它如何学会从上下文中复制。** *归纳头*找到当前词元之前出现的位置，并预测当时紧随其后的词元。"
        "这并不是大模型才有的性质：Olsson 等（2022，[arXiv:2209.11895](https://arxiv.org/abs/2209.11895)）"
        "在两层的纯注意力模型中就发现了归纳头，它们在训练早期的一次突然的相变中形成。我们的模型在第一阶段的纯文本训练中"
        "没有形成归纳头。第二阶段继续在文本上训练，并混入重复两遍"
        "的随机词元序列、只在重复部分计算损失——先放在上下文开头，"
        "再放在随机词元之后，最后放进一段文本之中，这样只有按内容匹配的头才能做对。现在 {lh} 画出了这道条纹，"
        "重复部分的损失降到第一遍的约 {ratio:.2%}。它能复制上下文中"
        "已有的内容，但不能像 GPT-3 那样从几个示例中学会新任务。\n\n"
        "**还可以试试：** 把温度设为 0（贪心解码），看它陷入循环；设为 1.5，看它变得支离破碎；把 top-p 设为 0.5，"
        "数一数剩下多少词元；用 logit 透镜看预测如何逐层形成。",
    ),
    # the papers' models beside ours
    "gpt.pvh.shape": ("Layers / width / heads", "层数 / 宽度 / 头数"),
    "gpt.pvh.shape.paper": (
        "GPT-1: 12 / 768 / 12 · GPT-2: 12–48 layers, width 768–1600 · GPT-3: 96 / 12,288 / 96",
        "GPT-1：12 / 768 / 12 · GPT-2：12–48 层，宽度 768–1600 · GPT-3：96 / 12,288 / 96",
    ),
    "gpt.pvh.params": ("Parameters", "参数量"),
    "gpt.pvh.params.paper": (
        "GPT-1: 117 M · GPT-2: 117 M–1.5 B · GPT-3: 175 B",
        "GPT-1：1.17 亿 · GPT-2：1.17 亿–15 亿 · GPT-3：1750 亿",
    ),
    "gpt.pvh.params.here": ("{params:.2f} M", "{params:.2f} 百万"),
    "gpt.pvh.context": ("Context (tokens)", "上下文长度（词元）"),
    "gpt.pvh.context.paper": ("GPT-1: 512 · GPT-2: 1024 · GPT-3: 2048", "GPT-1：512 · GPT-2：1024 · GPT-3：2048"),
    "gpt.pvh.vocab": ("Tokenizer", "分词器"),
    "gpt.pvh.vocab.paper": (
        "GPT-1: BPE with 40,000 merges · GPT-2 and GPT-3: byte-level BPE, 50,257 tokens",
        "GPT-1：40,000 次合并的 BPE · GPT-2 与 GPT-3：字节级 BPE，50,257 个词元",
    ),
    "gpt.pvh.vocab.here": (
        "byte-level BPE, {vocab:,} tokens, learnt on the training plays",
        "字节级 BPE，{vocab:,} 个词元，在训练剧本上学得",
    ),
    "gpt.pvh.norm": ("LayerNorm", "LayerNorm 位置"),
    "gpt.pvh.norm.paper": (
        "GPT-1: after each sub-block (post-LN) · GPT-2, GPT-3: at the input of each sub-block (pre-LN), plus a "
        "final LayerNorm",
        "GPT-1：每个子层之后（后置） · GPT-2、GPT-3：每个子层的输入处（前置），另加最终 LayerNorm",
    ),
    "gpt.pvh.norm.here": ("pre-LN plus a final LayerNorm, as GPT-2", "前置 LayerNorm 加最终 LayerNorm，同 GPT-2"),
    "gpt.pvh.attention": ("Attention", "注意力"),
    "gpt.pvh.attention.paper": (
        "GPT-1, GPT-2: dense · GPT-3: dense and locally banded sparse layers, alternating",
        "GPT-1、GPT-2：稠密 · GPT-3：稠密层与局部带状稀疏层交替",
    ),
    "gpt.pvh.attention.here": (
        "dense and causal in every layer; learned positions",
        "每一层都是稠密的因果注意力；可学习位置编码",
    ),
    "gpt.pvh.data": ("Training data", "训练数据"),
    "gpt.pvh.data.paper": (
        "GPT-1: BooksCorpus · GPT-2: WebText, 40 GB · GPT-3: filtered Common Crawl and other sets, 300 B tokens",
        "GPT-1：BooksCorpus · GPT-2：WebText，40 GB · GPT-3：过滤后的 Common Crawl 等数据，3000 亿词元",
    ),
    "gpt.pvh.data.here": (
        "Shakespeare, 37 works; about {tokens:.0f} M tokens seen in stage 1, then text mixed with repeated sequences",
        "莎士比亚 37 部作品；第一阶段约见过 {tokens:.0f} 百万个词元，之后是混有重复序列的文本",
    ),
    "gpt.pvh.result": ("Headline result", "主要结果"),
    "gpt.pvh.result.paper": (
        "GPT-1: fine-tuned, state of the art on 9 of 12 tasks · GPT-2: zero-shot, state of the art on 7 of 8 "
        "language-modelling sets · GPT-3: few-shot learning from examples in the prompt",
        "GPT-1：微调后在 12 个任务中的 9 个上达到最佳 · GPT-2：零样本，在 8 个语言建模数据集中的 7 个上达到最佳 · "
        "GPT-3：从提示中的示例进行少样本学习",
    ),
    "gpt.pvh.result.here": (
        "{bpc:.2f} bits per character on unseen plays (bigram {bigram:.2f}); copies a repeated random sequence "
        "(repeat ÷ first loss {ratio:.2%})",
        "在未见过的剧本上每字符 {bpc:.2f} 比特（二元语法 {bigram:.2f}）；能复制重复的随机序列"
        "（重复 ÷ 第一遍的损失为 {ratio:.2%}）",
    ),
    "gpt.pvh.dep.norm": (
        "Pre-LN with a final LayerNorm, as GPT-2 and GPT-3; GPT-1 put LayerNorm after each sub-block.",
        "前置 LayerNorm 加最终 LayerNorm，与 GPT-2、GPT-3 相同；GPT-1 把 LayerNorm 放在每个子层之后。",
    ),
    "gpt.pvh.dep.dense": (
        "Dense attention in every layer: GPT-3 alternates dense and locally banded sparse layers.",
        "每一层都是稠密注意力：GPT-3 交替使用稠密层和局部带状稀疏层。",
    ),
    "gpt.pvh.dep.gelu": (
        "The MLP's GELU is the exact x·Φ(x); GPT-2's code uses the tanh approximation (they differ by less than "
        "0.001).",
        "MLP 中的 GELU 用的是精确形式 x·Φ(x)；GPT-2 的代码用的是 tanh 近似（两者之差小于 0.001）。",
    ),
    "gpt.pvh.dep.size": (
        "Tiny: {layers} layers of width {dim}, a {vocab:,}-token BPE learnt on the plays, a {context}-token context.",
        "很小：{layers} 层，宽度 {dim}，在剧本上学得的 {vocab:,} 词元 BPE，{context} 个词元的上下文。",
    ),
    "gpt.pvh.dep.dropout": (
        "No dropout (GPT-1 used 0.1 on the embeddings, the attention and the residual connections).",
        "没有 dropout（GPT-1 在嵌入、注意力和残差连接上使用 0.1）。",
    ),
    "gpt.pvh.dep.stage2": (
        "A second training stage mixes random sequences shown twice into the text, so that an induction head forms "
        "within hours on a CPU; no GPT paper trains this way.",
        "第二个训练阶段在文本中混入重复两遍的随机序列，使归纳头在 CPU 上几小时内形成；没有哪篇 GPT 论文这样训练。",
    ),
    # ---- a real pretrained checkpoint (the picker at the top) ----
    "gpt.intro.real": (
        "**{title}**, a real pretrained decoder-only Transformer with {params:.0f} million parameters, converted "
        "into this app's own classes: the same views as on our small model, on a model trained on a large share of "
        "the web. Type a prompt: you see what it expects next, how sampling reshapes that, what it writes, and what "
        "its layers and heads do. Inputs are capped shorter than for ours: it runs on a CPU here.",
        "**{title}**：一个真实的预训练仅解码器 Transformer，{params:.0f} 百万参数，已转换成本应用自己的模型类："
        "视图与我们的小模型相同，但模型是在大量网络文本上训练的。输入一段提示：你会看到它对下一个词元的预测、"
        "采样如何改变这个分布、它续写出的文字，以及各层、各头做了什"
        "么。输入长度比我们的模型限制得更短：这里在 CPU 上运行。",
    ),
    "gpt.try.see.real": (
        "Whatever the tokens, the first copy costs more than a blind uniform guess (ln {vocab:,} ≈ {uniform:.1f} "
        "nats) — random tokens are nothing like its training text — and on the repeat the loss falls steeply; "
        "head {lh} scores highest, and its map shows the stripe just right of the second diagonal. Set the page's "
        "model to ours to compare: a table in that view puts the two side by side.",
        "无论是哪些词元，第一遍的损失都高于盲目的均匀猜测（ln {vocab:,} ≈ {uniform:.1f} 奈特）——随机词元与它的训练文本"
        "毫不相像——而重复时损失大幅下降；得分最高的是 {lh}，"
        "它的注意力图在第二条对角线右侧显出条纹。该视图里还有一张表，"
        "把它与我们的小模型并排比较。",
    ),
    "gpt.m.tokens.help.real": (
        "Tokens of the prompt, as the model's own tokenizer cuts it. Nothing is put in front: this model's "
        "tokenizer adds no start token (its <|endoftext|> separates documents).",
        "模型自己的分词器切出的提示词词元数。前面不加任何词元：该模型的分词器不添加起始词元"
        "（它的 <|endoftext|> 用来分隔文档）。",
    ),
    "gpt.error.too_long_tokens_real": (
        "The prompt is {n} tokens long; on a real model this page reads at most {max} (it runs on a CPU: a forward "
        "pass with every attention map costs about 10 ms a token). Shorten it.",
        "提示词有 {n} 个词元；在真实模型上本页最多读取 {max} 个（这里在 CPU 上运行：记录全部注意力图的一次前向传播"
        "每个词元约需 10 毫秒）。请缩短。",
    ),
    "gpt.sampling.real": (
        "On a real model, generation runs in eager torch with the model's own KV cache (no compiled step, no ONNX "
        "graph), a few tokens a second on a CPU, at most {max} tokens.",
        "在真实模型上，生成在 eager 模式的 torch 中进行，使用模"
        "型自己的 KV 缓存（没有编译好的解码步骤，也没有 ONNX 图），"
        "在 CPU 上每秒只有几个词元，最多 {max} 个。",
    ),
    "gpt.progress": ("Decoding: {done} of {n} tokens", "解码中：{done} / {n} 个词元"),
    "gpt.tok.caption.real": (
        "{title}'s byte-level BPE, {vocab:,} tokens learnt on its own training data (web text, code, maths): "
        "English words are mostly one token each. Unlike ours, nothing is put before the text: the model was not "
        "trained to see a start token. · marks a space, ↵ a line break, ‹e4 bd› bytes that are only part of a "
        "character.",
        "{title} 的字节级 BPE，{vocab:,} 个词元，在它"
        "自己的训练数据（网页文本、代码、数学）上学得：英文单词大多一个词一个"
        "词元。与我们的模型不同，文本前面不加任何词元：该模型训练时没有"
        "起始词元。· 表示空格，↵ 表示换行，‹e4 bd› 表示只是"
        "某个字符一部分的字节。",
    ),
    "gpt.att.grid.layer": (
        "Every head of layer {layer}, last {n} tokens ({layers} layers × {heads} heads would be too many maps to "
        "read: move the layer to see another row).",
        "层 {layer} 的所有头，最后 {n} 个词元（{layers} 层 × {heads} 个头的图太多，无法阅读：移动层滑块查看其他层）。",
    ),
    "gpt.lens.title": (
        "Top next token per layer and position; the model's answer here: “{token}”",
        "每层每个位置的首选下一个词元；模型在此的答案：“{token}”",
    ),
    "gpt.lens.real": (
        "What the plain lens shows on a real model: the answer “{token}” is on top only from {first} on (p = {p:.2f} "
        "at the output). In {n} of the {inner_layers} inner rows the lens reads “{inner}” instead, up to p = "
        "{inner_p:.2f}. That need not be what those layers “think”: their stream may not yet be written in the "
        "output's basis, and the final RMSNorm and unembedding read whatever direction dominates it. The tuned "
        "lens's authors (2303.08112) find the plain lens unreliable and biased on early layers, and read them better "
        "with a probe trained per layer; this page shows the plain lens, as it is.",
        "普通 logit 透镜在真实模型上显示的是：答案“{token}”直到 {first} 才排第一（输出处 p = {p:.2f}）。在 "
        "{inner_layers} 个中间行里有 {n} 行读出的是“{inner}”，最高 p = {inner_p:.2f}。这未必是这些层“在想”的："
        "它们的残差流可能尚未写成输出所用的坐标，而最终 RMSNorm 和反嵌入读出的是其中占主导的方向。tuned lens 的"
        "作者（2303.08112）发现普通透镜在前几层不可靠且有偏，用为每层训练的探针能更好地读出它们；本页如实展示普通"
        "透镜。",
    ),
    "gpt.compare.model": ("model", "模型"),
    "gpt.compare.lens": (
        "The same prompt through ours (trained here on Shakespeare) and the real model: where the final answer "
        "first tops the lens, out of how many blocks.",
        "同一提示分别送入我们的模型（在此用莎士比亚训练）和真实模型：最终答案最早在哪一块之后登上透镜第一，共几块。",
    ),
    "gpt.compare.final": ("answer", "答案"),
    "gpt.compare.first": ("first on top / blocks", "首次排第一 / 块数"),
    "gpt.compare.p": ("answer's probability", "答案的概率"),
    "gpt.compare.icl": (
        "Ours and the real model on a random sequence of the same length and seed (each drawn from its own "
        "vocabulary), run now:",
        "我们的模型与真实模型，在长度和种子相同的随机序列上（各自从自己的词表中抽取），现场运行：",
    ),
    "gpt.compare.heads": ("heads scoring > 0.3", "得分 > 0.3 的头数"),
    "gpt.icl.m.ratio.help.real": (
        "Loss on the repeat ÷ loss on the first copy; the first token of each copy is left out (nothing predicts "
        "it). Measured here, now, on this one sequence: a real model has no card of ours.",
        "重复时的损失 ÷ 第一遍的损失；每遍的第一个词元不计入（没有什么能预测它）。此处对这一条序列现场测量：真实模型"
        "没有我们的模型卡。",
    ),
    "gpt.icl.note.real": (
        "The first copy costs {first:.2f} nats a token, {times:.1f} × a uniform guess (ln {vocab:,} ≈ "
        "{uniform:.2f}, dotted line): the model is sure random tokens are not what comes next, and being sure and "
        "wrong costs more than knowing nothing. The repeat costs {second:.2f} nats a token: it copies from its "
        "context. Its induction heads were not put there by a curriculum, as ours were: they formed in "
        "pre-training on ordinary text.",
        "第一遍每个词元的损失为 {first:.2f} 奈特，是均匀猜测（ln {vocab:,} ≈ {uniform:.2f}，点线）的 {times:.1f} 倍："
        "模型确信随机词元不会出现，自信地猜错比一无所知代价更大。重复时每个词元的损失为 {second:.2f} 奈特：它从上下文"
        "中复制。它的归纳头不像我们的那样靠专门的训练阶段形成，而是在普通文本的预训练中自己形成的。",
    ),
    "gpt.icl.few.title.real": ("Few-shot prompts", "少样本提示"),
    "gpt.icl.few.caption.real": (
        "The same three prompts we give our small model (written for it: Shakespeare's refrain, a list, "
        "alternating dialogue), greedy decoding of 6 tokens. Whether the real model continues each is measured "
        "now, not assumed.",
        "与给我们的小模型相同的三条提示（为它而写：莎士比亚式叠句、列表、交替对话），6 个词元的贪心解码。"
        "真实模型是否接续，都是现场测得，而非假定。",
    ),
    "gpt.card.vocab": ("Vocabulary", "词表大小"),
    "gpt.card.context": ("Context (tokens)", "上下文（词元）"),
    "gpt.card.precision": ("Weights as stored", "权重的存储精度"),
    "gpt.card.real": (
        "{title}, from {origin} (licence: {license}), converted once into this app's classes and served as ours "
        "are. Not trained or evaluated here: no held-out bits per character, no bars of ours.",
        "{title}，来自 {origin}（许可证：{license}），一次性转换为本应用的模型类，像我们的模型一样提供服务。"
        "不是在这里训练或评估的：没有我们的留出集每字符比特数，也没有我们的达标线。",
    ),
    "gpt.pvh.heads.real": ("{heads} query heads, {kv} key/value heads", "{heads} 个查询头，{kv} 个键/值头"),
    "gpt.pvh.vocab.real": ("byte-level BPE, {vocab:,} tokens", "字节级 BPE，{vocab:,} 个词元"),
    "gpt.pvh.norm.llama": (
        "RMSNorm at the input of each sub-block, plus a final one (the Llama family)",
        "每个子层输入处的 RMSNorm，另加最终一层（Llama 系列）",
    ),
    "gpt.pvh.norm.gpt": ("pre-LN plus a final LayerNorm (GPT-2)", "前置 LayerNorm 加最终 LayerNorm（GPT-2）"),
    "gpt.pvh.attention.llama": (
        "dense and causal; rotary positions (RoPE) instead of a learned table; grouped-query attention; SwiGLU MLP",
        "稠密因果注意力；旋转位置编码（RoPE）取代可学习位置表；分组查询注意力；SwiGLU MLP",
    ),
    "gpt.pvh.attention.gpt": ("dense and causal; learned positions", "稠密因果注意力；可学习位置编码"),
    "gpt.pvh.data.real": (
        "pre-trained on web text, code and maths, then instruction-tuned (arXiv {paper})",
        "在网页文本、代码和数学数据上预训练，再做指令微调（arXiv {paper}）",
    ),
    "gpt.pvh.dep.real.llama": (
        "A Llama-family decoder, not GPT-2's layout: RMSNorm for LayerNorm, rotary positions for the learned table, "
        "SwiGLU for GELU, several query heads sharing each key/value head, no biases. Decoder-only, causal, "
        "next-token prediction: what the GPT papers are about holds.",
        "Llama 系列解码器，而非 GPT-2 的结构：用 RMSNorm 代替 "
        "LayerNorm，用旋转位置编码代替可学习位置表，用 SwiGLU 代替 "
        "GELU，多个查询头共享一个键/值头，没有偏置。仍是仅解码器、因果、预测下一个词元：GPT 论文的要点都成立。",
    ),
    "gpt.pvh.dep.real.gpt": (
        "GPT-2's own layout and weights, converted into our GPT class.",
        "GPT-2 自己的结构和权重，转换成我们的 GPT 类。",
    ),
    "gpt.pvh.dep.real.precision": (
        "Its weights as the file on this machine holds them (the picker says which precision), converted to "
        "float32: a 4-bit file gives numbers close to, not equal to, the released model's.",
        "权重取自本机上的文件（选择器会说明精度），转换为 float"
        "32：4 比特文件给出的数值与发布的模型接近，但不完全相同。",
    ),
    "gpt.pvh.dep.real.chat": (
        "An instruction-tuned model answers best inside its chat template: every view reads the plain text, as a "
        "base model would, and generation offers the template as a switch.",
        "指令微调过的模型在其对话模板中回答得最好：各个视图都直接读纯文本，像基础模型那样；生成时可以用开关套上模板。",
    ),
    "gpt.explain.real": (
        "**GPT-1** (2018) kept the Transformer's decoder alone and pre-trained it to predict the next token; "
        "**GPT-2** (2019) moved the norm to each sub-block's input and showed zero-shot tasks from the prompt alone; "
        "**GPT-3** ([arXiv:2005.14165](https://arxiv.org/abs/2005.14165)) scaled it to 175 billion parameters and "
        "showed few-shot in-context learning.\n\n"
        "**What you see here.** {title} keeps that recipe — decoder-only, causal attention, next-token prediction "
        "— with the Llama family's parts: {layers} layers of width {dim}, {heads} query heads sharing {kv} "
        "key/value heads, RMSNorm, rotary positions, SwiGLU, {vocab:,} tokens. It knows facts our Shakespeare "
        "model cannot (try “The capital of France is”). Its induction head {lh} formed in ordinary pre-training, "
        "as Olsson et al. 2022 ([arXiv:2209.11895](https://arxiv.org/abs/2209.11895)) describe, with no curriculum "
        "like ours. The plain logit lens is less kind to it than to ours: on this prompt {n_inner} inner layers "
        "read “{inner}” at the last position, and the answer appears only near the output.",
        "**GPT-1**（2018）只保留 Transformer 的解码器，预训练它预测下一个词元；**GPT-2**（2019）把归一化移到每个子层的"
        "输入处，并表明仅凭提示就能零样本完成任务；**GPT-3**（[arXiv:2005.14165](https://arxiv.org/abs/2005.14165)）"
        "扩展到 1750 亿参数，展示了少样本上下文学习。\n\n"
        "**这里能看到什么。** {title} 沿用这一做法——仅解码器、因果注意力、预测下一个词元——但采用 Llama 系列的部件："
        "{layers} 层，宽度 {dim}，{heads} 个查询头共享 {kv} 个"
        "键/值头，RMSNorm、旋转位置编码、SwiGLU，{vocab:,} 个词元。"
        "它知道我们的莎士比亚模型不可能知道的事实（试试“The capital of France is”）。它的归纳头 {lh} 是在普通预训练中"
        "形成的，正如 Olsson 等 2022（[arXiv:2209.11895](https://arxiv.org/abs/2209.11895)）所述，不需要我们那样的专门"
        "训练阶段。普通 logit 透镜对它不如对我们的模型友好：在这个提示"
        "上，有 {n_inner} 个中间层在最后位置读出“{inner}”，"
        "答案直到接近输出时才出现。",
    ),
    "gpt.pvh.here.real": ("here ({title})", "这里（{title}）"),
    "gpt.lens.caption.real": (
        "The logit lens (nostalgebraist 2020): read the residual stream after each block through the model's final "
        "RMSNorm and its unembedding (tied to the token embedding), as if the model stopped there. Each cell is the "
        "top next-token guess at that position, shaded by its probability; the last row is the model's output.",
        "Logit 透镜（nostalgebraist，2020）：把每个块之后的残差流送入模型最终的 RMSNorm 和反嵌入（与词嵌入共享），"
        "就好像模型在那里停下。每个格子是该位置对下一个词元的首选猜测，颜色表示其概率；最后一行是模型的输出。",
    ),
    "gpt.att.sink": (
        "On average this head gives the first token {share:.0%} of its weight (queries after it); over all {heads} "
        "heads of the model, on this text, the first token gets {mean:.0%}. Many heads of a trained model park their "
        "attention on the first token when nothing else is worth reading — an “attention sink” (Xiao et al. 2023, "
        "arXiv:2309.17453).",
        "平均而言，该头把 {share:.0%} 的权重给了第一个词元（其后的查询）；在这段文本上，模型全部 {heads} 个头"
        "平均给第一个词元 {mean:.0%}。训练好的模型中，许多头在没有值得读取的内容时把注意力停放在第一个词元上"
        "——即“注意力汇”（Xiao 等 2023，arXiv:2309.17453）。",
    ),
}
