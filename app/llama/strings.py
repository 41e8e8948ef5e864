"""English and 简体中文 text of the LLaMA-family page."""

STRINGS = {
    "llama.intro": (
        "LLaMA (2302.13971) put three changes to the GPT block together: **RMSNorm** before each sub-layer, a "
        "**SwiGLU** feed-forward network and **rotary positions** (RoPE). Llama 2 (2307.09288) added **grouped-query "
        "attention** (2305.13245) to its largest models and a 4k context; Qwen2.5 (2412.15115) keeps the recipe with "
        "a few changes. RoPE has its own page.",
        "LLaMA（2302.13971）把对 GPT 模块的三处改动合在一起：每个子层之前的 **RMSNorm**、**SwiGLU** 前馈网络和"
        "**旋转位置编码**（RoPE）。Llama 2（2307.09288）在最大的几个模型里加入了**分组查询注意力**（2305.13245），"
        "上下文增至 4k；Qwen2.5（2412.15115）沿用这一配方，只做了少量改动。RoPE 有单独的页面。",
    ),
    "llama.intro.ours": (
        "Below, a small model trained here ({L} layers, {H} query heads sharing {G} key/value heads) is probed, "
        "beside two siblings trained the same way with {H} and with 1 key/value head.",
        "下面探查一个在本站训练的小模型（{L} 层，{H} 个查询头共享 {G} 个键/值头），并与两个同样方式训练、"
        "分别有 {H} 个和 1 个键/值头的兄弟模型对比。",
    ),
    "llama.try.do": (
        "Move the token slider, and switch the block between 1 (the default) and 0; then press **Generate** in "
        "section 3.",
        "拖动词元滑块，并在模块 1（默认）和模块 0 之间切换；然后在第 3 节按 **生成**。",
    ),
    "llama.try.see": (
        "The mean of the residual stream is a few percent of its RMS, so RMSNorm and LayerNorm give almost the same "
        "vector. In block 1 a typical token has about a third of its SwiGLU gates nearly shut (the default token: a "
        "quarter), in block 0 about three quarters; either way a tenth of the units carry most of the product. While "
        "the models write, the three caches grow along straight lines whose slopes are in the ratio 4 : 2 : 1.",
        "残差流的均值只有其 RMS 的百分之几，所以 RMSNorm 和 LayerNorm 给出几乎相同的向量。对典型的词元，"
        "模块 1 中约三分之一的 SwiGLU 门几乎关闭（默认词元约四分之一），模块 0 中约四分之三；"
        "两者都是十分之一的单元承载了乘积的大部分。"
        "模型生成时，三个缓存沿直线增长，斜率之比为 4 : 2 : 1。",
    ),
    "llama.try.why": (
        "RMSNorm's authors (1910.07467) found that LayerNorm's re-scaling is what helps and its re-centring can go, "
        "which saves work; the KV cache holds one key and one value per key/value head, so sharing heads divides it.",
        "RMSNorm 的作者（1910.07467）发现，LayerNorm 起作用的是重新缩放，重新中心化可以去掉，还能省下计算；"
        "键值缓存为每个键/值头存一个键和一个值，所以共享头会按比例缩小缓存。",
    ),
    "llama.text": ("Text", "文本"),
    "llama.text.help": (
        "At most {chars} characters and {tokens} tokens (the training context).",
        "最多 {chars} 个字符、{tokens} 个词元（训练时的上下文长度）。",
    ),
    "llama.token": ("Token", "词元"),
    "llama.token.help": (
        "The position whose activations sections 1 and 2 show (0 is the ⟨eot⟩ that starts every text).",
        "第 1、2 节显示其激活值的位置（0 是每段文本开头的 ⟨eot⟩）。",
    ),
    "llama.token.help.real": (
        "The position whose activations sections 1 and 2 show (0 is the text's first token: a real model reads its "
        "text as its own tokenizer cuts it, with nothing added in front, as on the GPT and forward-pass pages).",
        "第 1、2 节显示其激活值的位置（0 是文本的第一个词元：真实模型按它自己的分词器切分文本，前面不加任何词元，"
        "与 GPT 页和前向传播页相同）。",
    ),
    "llama.block": ("Block", "模块"),
    "llama.block.help": (
        "Which block's RMSNorm input (section 1) and SwiGLU (section 2) to show; zero-based.",
        "显示哪个模块的 RMSNorm 输入（第 1 节）和 SwiGLU（第 2 节）；从 0 开始编号。",
    ),
    "llama.chosen": (
        "Token {token} ({piece}), block {block}.",
        "词元 {token}（{piece}），模块 {block}。",
    ),
    # 1 · RMSNorm
    "llama.norm.title": ("1 · RMSNorm: no mean to subtract", "1 · RMSNorm：不减均值"),
    "llama.norm.caption": (
        "LayerNorm(x) = (x − μ) / √(σ² + ε) · g + b; RMSNorm (Zhang & Sennrich, 1910.07467) drops the mean and the "
        "bias: RMSNorm(x) = x / √(mean(x²) + ε) · g. Since RMS² = μ² + σ², the two differ only through the mean μ of "
        "the C channels. Zhang & Sennrich argue that LayerNorm helps through re-scaling, while re-centring is "
        "dispensable, and that skipping the mean is cheaper: they report 7–64 % faster models. LLaMA normalises the "
        "input of every sub-layer (pre-normalisation, as GPT-3) with RMSNorm. Below: the residual stream that each "
        "block's first RMSNorm reads in the chosen model, and what subtracting the mean would change there.",
        "LayerNorm(x) = (x − μ) / √(σ² + ε) · g + b；RMSNorm（Zhang 与 Sennrich，1910.07467）去掉了均值和偏置："
        "RMSNorm(x) = x / √(mean(x²) + ε) · g。由于 RMS² = μ² + σ²，两者只在 C 个通道的均值 μ 上有差别。"
        "Zhang 与 Sennrich 认为 LayerNorm 起作用的是重新缩放，重新中心化可有可无，而省去均值能少算一些：他们报告"
        "模型快了 7–64 %。LLaMA 用 RMSNorm 对每个子层的输入做归一化（前置归一化，与 GPT-3 相同）。"
        "下面是所选模型中每个模块第一个 RMSNorm 读入的残差流，"
        "以及减去均值会在那里改变什么。",
    ),
    "llama.m.mean_share": ("|μ| / RMS", "|μ| / RMS"),
    "llama.m.mean_share.help": (
        "The mean of this token's C channels against their root mean square. LayerNorm would subtract μ; at a few "
        "percent it hardly moves the vector.",
        "该词元 C 个通道的均值与其均方根之比。LayerNorm 会减去 μ；只有百分之几时，向量几乎不变。",
    ),
    "llama.m.cosine": ("cos(RMSNorm, LayerNorm)", "cos(RMSNorm, LayerNorm)"),
    "llama.m.cosine.help": (
        "Cosine between the two normalised vectors, both with the trained gain g (LayerNorm without bias): 1 means "
        "the same direction.",
        "两个归一化向量之间的余弦，二者都乘以训练得到的增益 g（LayerNorm 不带偏置）：1 表示方向相同。",
    ),
    "llama.m.change": ("Change if the mean were subtracted", "减去均值带来的变化"),
    "llama.m.change.help": (
        "‖LayerNorm(x) − RMSNorm(x)‖ / ‖RMSNorm(x)‖: how much the vector the next layer reads would move.",
        "‖LayerNorm(x) − RMSNorm(x)‖ / ‖RMSNorm(x)‖：下一层读到的向量会移动多少。",
    ),
    "llama.m.centred_loss": ("Loss with every mean subtracted", "所有位置都减去均值后的损失"),
    "llama.m.centred_loss.help": (
        "Mean next-token loss of this text (nats) when every RMSNorm of the trained model is replaced by LayerNorm "
        "with the same gains, nothing retrained; as trained: {loss:.3f}. The arrow shows the difference.",
        "把训练好的模型中每个 RMSNorm 换成增益相同的 LayerNorm（不重新训练）时，这段文本的平均下一词元损失"
        "（奈特）；原模型为 {loss:.3f}。箭头显示差值。",
    ),
    "llama.point": ("into block {block}", "进入模块 {block}"),
    "llama.point.final": ("final norm", "最终归一化"),
    "llama.view.norm": ("What the RMSNorm part shows", "RMSNorm 部分显示的内容"),
    "llama.view.channels": ("This token's channels", "此词元的通道"),
    "llama.view.points": ("Every norm and token", "每个归一化处与词元"),
    "llama.view.swiglu": ("What the SwiGLU part shows", "SwiGLU 部分显示的内容"),
    "llama.view.scatter": ("Gate against up", "门对上投影"),
    "llama.view.sorted": ("Units sorted by |product|", "按 |乘积| 排序的单元"),
    "llama.norm.channels": (
        "Token {token} entering block {block}: its C channels, their mean μ (red) and ±RMS (dotted).",
        "词元 {token} 进入模块 {block} 时：它的 C 个通道、通道均值 μ（红线）和 ±RMS（虚线）。",
    ),
    "llama.norm.points": (
        "At each norm of the model, over every token of the text: |μ| / RMS and the change LayerNorm would make "
        "(line: mean over tokens; dots: each token; ring: the chosen one).",
        "模型中每个归一化处、文本中每个词元的 |μ| / RMS 和 LayerNorm 会带来的变化"
        "（线：所有词元的平均；点：每个词元；圆圈：所选词元）。",
    ),
    "llama.channel": ("channel", "通道"),
    "llama.value": ("value", "数值"),
    "llama.mean": ("mean μ", "均值 μ"),
    "llama.rms": ("±RMS", "±RMS"),
    "llama.this_token": ("chosen token", "所选词元"),
    "llama.percent": ("percent", "百分比"),
    "llama.m.norm_params": ("Parameters per norm (RMS / Layer)", "每个归一化的参数（RMS / Layer）"),
    "llama.m.norm_params.help": (
        "RMSNorm learns a gain g per channel; LayerNorm a gain and a bias.",
        "RMSNorm 为每个通道学习一个增益 g；LayerNorm 学习增益和偏置。",
    ),
    "llama.m.norm_ops": ("Arithmetic per vector (RMS / Layer)", "每个向量的运算量（RMS / Layer）"),
    "llama.m.norm_ops.help": (
        "Element operations for C = {C}, counted roughly: RMSNorm squares, sums, scales and applies the gain (≈ 4C, "
        "one reduction); LayerNorm also sums for the mean, subtracts it and adds the bias (≈ 7C, two reductions).",
        "C = {C} 时的逐元素运算量（粗略计数）：RMSNorm 求平方、求和、缩放、乘增益（≈ 4C，一次归约）；"
        "LayerNorm 还要为均值求和、减去均值、加偏置（≈ 7C，两次归约）。",
    ),
    "llama.m.norm_time": ("Measured (RMS / Layer)", "实测（RMS / Layer）"),
    "llama.m.norm_time.help": (
        "Median time of one call on the {n} stream vectors of this text (C = {C}), both written as the same plain "
        "tensor operations on this machine. Torch's own fused LayerNorm kernel took {fused:.0f} µs.",
        "在这段文本的 {n} 个残差流向量（C = {C}）上调用一次的中位时间，两者都用同样的普通张量运算写成，"
        "在本机上测得。torch 自带的融合 LayerNorm 内核用时 {fused:.0f} 微秒。",
    ),
    "llama.norm.cost": (
        "Written alike, RMSNorm took {rms:.0f} µs and LayerNorm {ln:.0f} µs on {n} vectors. A hand-fused kernel "
        "changes the picture ({fused:.0f} µs for torch's LayerNorm here): the saving is one reduction and a few "
        "element operations per vector, and it shows only when both are implemented with the same care.",
        "写法相同时，RMSNorm 在 {n} 个向量上用时 {rms:.0f} 微秒，LayerNorm 用时 {ln:.0f} 微秒。"
        "手工融合的内核会改变结果（这里 torch 的 LayerNorm 用时 {fused:.0f} 微秒）：节省的是每个向量的一次归约"
        "和几次逐元素运算，只有两者实现得同样用心时才看得出来。",
    ),
    # 2 · SwiGLU
    "llama.swiglu.title": ("2 · SwiGLU: a gate on every hidden unit", "2 · SwiGLU：每个隐藏单元都有一个门"),
    "llama.swiglu.caption": (
        "SwiGLU(x) = W₂ (SiLU(W₁x) ⊙ W₃x) (Shazeer, 2002.05202): the up projection W₃x is multiplied unit by unit by "
        "a gate SiLU(W₁x), where SiLU(a) = a·σ(a). A unit whose gate is near 0 passes nothing, whatever W₃x says. "
        "Here C = {C} and the hidden width F = {F}; the figures show one token in the chosen block.",
        "SwiGLU(x) = W₂ (SiLU(W₁x) ⊙ W₃x)（Shazeer，2002.05202）：上投影 W₃x 逐单元乘以门 SiLU(W₁x)，"
        "其中 SiLU(a) = a·σ(a)。门接近 0 的单元不论 W₃x 是多少都不放行。这里 C = {C}，隐藏宽度 F = {F}；"
        "图中是所选模块里的一个词元。",
    ),
    "llama.m.closed": ("Gates nearly shut", "几乎关闭的门"),
    "llama.m.closed.help": (
        "Share of the {F} units whose |SiLU(W₁x)| is below {share} of this token's largest gate.",
        "{F} 个单元中 |SiLU(W₁x)| 低于该词元最大门值 {share} 的比例。",
    ),
    "llama.m.negative": ("W₁x < 0", "W₁x < 0"),
    "llama.m.negative.help": (
        "Share of units on SiLU's negative side, where the gate is never larger than 0.28 in magnitude.",
        "处于 SiLU 负半轴的单元比例，那里门值的绝对值不超过 0.28。",
    ),
    "llama.m.top": ("Energy in the top units", "最大单元承载的能量"),
    "llama.m.top.help": (
        "Share of ‖SiLU(W₁x) ⊙ W₃x‖² carried by the {share} largest units ({n} of them).",
        "‖SiLU(W₁x) ⊙ W₃x‖² 中由最大的 {share} 单元（{n} 个）承载的比例。",
    ),
    "llama.gate": ("gate SiLU(W₁x)", "门 SiLU(W₁x)"),
    "llama.up": ("up W₃x", "上投影 W₃x"),
    "llama.product": ("product", "乘积"),
    "llama.closed_band": ("nearly shut", "几乎关闭"),
    "llama.unit_rank": ("units, largest |product| first", "单元（按 |乘积| 从大到小）"),
    "llama.swiglu.scatter": (
        "Each dot a hidden unit: gate across, up projection up, coloured by their product. In the grey band the gate "
        "silences the unit.",
        "每个点是一个隐藏单元：横轴为门，纵轴为上投影，颜色为二者之积。灰色带内的门使该单元静默。",
    ),
    "llama.swiglu.sorted": (
        "The same three vectors, units sorted by |product|: the product is large only where both are.",
        "同样的三个向量，单元按 |乘积| 排序：只有两者都大时乘积才大。",
    ),
    "llama.swiglu.width": (
        "**Why ⅔ · 4d.** GPT's feed-forward network has two matrices of C × 4C; SwiGLU has three (W₁, W₂, W₃). "
        "LLaMA sets the hidden width to ⅔ · 4C so the parameters stay the same: 3 · C · F = 2 · C · 4C. Here: "
        "3 · {C} · {F} = {params:,} = 2 · {C} · {four} = {mlp:,}. The released LLaMA models round ⅔ · 4C up "
        "(the F / ⅔·4C column of the table in section 4).",
        "**为什么是 ⅔ · 4d。** GPT 的前馈网络有两个 C × 4C 的矩阵；SwiGLU 有三个（W₁、W₂、W₃）。"
        "LLaMA 把隐藏宽度设为 ⅔ · 4C，使参数量保持不变：3 · C · F = 2 · C · 4C。这里："
        "3 · {C} · {F} = {params:,} = 2 · {C} · {four} = {mlp:,}。发布的 LLaMA 模型把 ⅔ · 4C 向上取整"
        "（见第 4 节表格中的 F / ⅔·4C 一列）。",
    ),
    # 3 · MHA / GQA / MQA
    "llama.gqa.title": ("3 · MHA, GQA, MQA: how many key/value heads", "3 · MHA、GQA、MQA：多少个键/值头"),
    "llama.gqa.caption": (
        "Multi-head attention gives every query head its own keys and values; multi-query attention (1911.02150) "
        "shares one key/value head among all; grouped-query attention (2305.13245) sits between: G key/value heads, "
        "each read by H/G query heads. Only keys and values are cached while a model writes, so the cache per token "
        "is 2 · L · G · D numbers. Three models trained here on the same data, batches and schedule differ only in G.",
        "多头注意力让每个查询头都有自己的键和值；多查询注意力（1911.02150）让所有查询头共享一个键/值头；"
        "分组查询注意力（2305.13245）介于两者之间：G 个键/值头，每个由 H/G 个查询头读取。"
        "模型生成时只缓存键和值，所以每个词元的缓存是 2 · L · G · D 个数。"
        "这里用相同的数据、批次和学习率计划训练的三个模型只在 G 上不同。",
    ),
    "llama.query_head": ("query head", "查询头"),
    "llama.kv_head": ("key/value head", "键/值头"),
    "llama.m.kv_token": ("KV cache per token (measured)", "每个词元的键值缓存（实测）"),
    "llama.m.kv_token.help": (
        "Bytes the cache tensors grow by per token after a cached forward pass; the formula 2 · L · G · D · 4 bytes "
        "(float32) with L = {L}, G = {G}, D = {D} gives {formula:,}.",
        "一次带缓存的前向传播之后，缓存张量每个词元增长的字节数；公式 2 · L · G · D · 4 字节（float32），"
        "L = {L}、G = {G}、D = {D}，结果为 {formula:,}。",
    ),
    "llama.gqa.loss": (
        "Validation bits per character (held-out plays) against the KV cache each token costs, for the trained "
        "models (filled: the shipped seed; hollow: a second seed trained the same way, for the spread).",
        "已训练模型在留出剧本上的验证每字符比特数，对比每个词元的键值缓存开销"
        "（实心：发布的种子；空心：以同样方式训练的第二个种子，用来看波动）。",
    ),
    "llama.gqa.compare": (
        "Measured: MQA keeps {share:.0%} of MHA's cache and reads {diff:+.4f} bits per character against it "
        "({mqa:.4f} against {mha:.4f}); two seeds of one model differ by up to {spread:.4f}.",
        "实测：MQA 的缓存是 MHA 的 {share:.0%}，每字符比特数与之相差 {diff:+.4f}（{mqa:.4f} 对 {mha:.4f}）；"
        "同一模型的两个种子之间最多相差 {spread:.4f}。",
    ),
    "llama.gqa.compare_gqa": (
        "GQA keeps {share:.0%} of MHA's cache and reads {diff:+.4f} against it on the shipped seed, {mean_diff:+.4f} "
        "averaged over both seeds; set that beside the spread between seeds above. The GQA paper (2305.13245) "
        "claims quality close to multi-head at a fraction of the cache: this is that claim measured on ours.",
        "GQA 的缓存是 MHA 的 {share:.0%}，在发布的种子上每字符比特数相差 {diff:+.4f}，两个种子平均相差 "
        "{mean_diff:+.4f}；请与上面种子间的波动对照。GQA 论文（2305.13245）称其质量接近多头注意力，"
        "而缓存只占一部分：这里是在我们的模型上实测这一结论。",
    ),
    "llama.gqa.llama_note": (
        "The GQA point is llama's config (2 KV heads) trained exactly as its siblings — the same 612 steps, batches "
        "and two seeds — recorded in their cards as a control: {gqa:.4f}. The shipped llama checkpoint, trained in "
        "the race against the GPT baseline with its schedule counted in seconds, reads {shipped:.4f}; the live "
        "sections use it (the same architecture).",
        "GQA 的点是 llama 的配置（2 个键值头）按与兄弟模型完全相同的方式训练的结果——同样的 612 步、同样的批次和两个"
        "种子——作为对照记录在它们的模型卡里：{gqa:.4f}。发布的 llama 检查点是在与 GPT 基线的对比训练中得到的，学习率"
        "计划按秒计，读数为 {shipped:.4f}；实时部分用的是它（结构相同）。",
    ),
    "llama.kv_kib_token": ("KV cache per token (KiB, float32)", "每个词元的键值缓存（KiB，float32）"),
    "llama.val_bpc": ("validation bits per character", "验证集每字符比特数"),
    "llama.seed_shipped": ("shipped seed", "发布的种子"),
    "llama.seed_other": ("second seed", "第二个种子"),
    "llama.grow.title": ("The caches while the models write", "模型生成时的缓存"),
    "llama.grow.caption": (
        "Each installed model continues the prompt greedily, one token at a time with its KV cache; after every "
        "token the bytes of its key and value tensors are measured and set against 2 · L · G · D · 4 · positions.",
        "每个已安装的模型用贪心解码逐个词元续写提示，使用自己的键值缓存；每生成一个词元，就测量其键和值张量的"
        "字节数，并与 2 · L · G · D · 4 · 位置数 对比。",
    ),
    "llama.prompt": ("Prompt", "提示"),
    "llama.n": ("New tokens", "新词元数"),
    "llama.generate": ("Generate", "生成"),
    "llama.grow.press": ("Press Generate to run the three models.", "按“生成”运行三个模型。"),
    "llama.grow.spinner": ("Writing with each model…", "各模型正在生成……"),
    "llama.m.cache_end": ("{name}: cache at the end", "{name}：最终缓存"),
    "llama.m.cache_end.help": (
        "Keys and values of every layer for {positions} positions, measured from the tensors; the formula gives "
        "{formula}.",
        "{positions} 个位置、所有层的键和值，从张量实测；公式给出 {formula}。",
    ),
    "llama.formula_equal": ("= formula", "= 公式"),
    "llama.formula_differs": ("≠ formula", "≠ 公式"),
    "llama.m.tps": ("{name}: tokens per second", "{name}：每秒词元数"),
    "llama.cached_positions": ("cached positions", "已缓存的位置数"),
    "llama.kib": ("KV cache (KiB)", "键值缓存（KiB）"),
    "llama.formula": ("2 · L · G · D · 4 · positions", "2 · L · G · D · 4 · 位置数"),
    "llama.grow.missing": ("Not installed yet: {names}.", "尚未安装：{names}。"),
    "llama.grow.texts": ("What each model wrote", "各模型写了什么"),
    # 4 · configurations
    "llama.configs.title": ("4 · The real configurations", "4 · 真实模型的配置"),
    "llama.configs.caption": (
        "The released LLaMA, Llama 2 and Qwen2.5 models. Parameters and KV cache are computed from each "
        "configuration by the same formula as our model's count, and set against the published count.",
        "已发布的 LLaMA、Llama 2 和 Qwen2.5 模型。参数量和键值缓存都由每个配置按与我们模型相同的公式计算，"
        "并与公布的参数量对比。",
    ),
    "llama.configs.tab.shape": ("Shapes", "形状"),
    "llama.configs.tab.params": ("Parameters", "参数量"),
    "llama.configs.tab.kv": ("Context and KV cache", "上下文与键值缓存"),
    "llama.col.model": ("model", "模型"),
    "llama.col.L": ("L", "L"),
    "llama.col.C": ("C", "C"),
    "llama.col.H": ("H", "H"),
    "llama.col.G": ("G", "G"),
    "llama.col.F": ("F", "F"),
    "llama.col.F_ratio": ("F / ⅔·4C", "F / ⅔·4C"),
    "llama.col.V": ("V", "V"),
    "llama.col.ctx": ("context", "上下文"),
    "llama.col.other": ("also", "其他"),
    "llama.col.tied": ("tied", "共享嵌入"),
    "llama.col.qkv_bias": ("QKV bias", "QKV 偏置"),
    "llama.col.params": ("parameters", "参数量"),
    "llama.col.pub": ("published", "公布值"),
    "llama.col.diff": ("Δ", "Δ"),
    "llama.col.kv": ("KV / token", "键值 / 词元"),
    "llama.col.kv_ctx": ("KV, full context", "键值（满上下文）"),
    "llama.configs.note": (
        "L layers, C width, H query heads, G key/value heads, F SwiGLU width, V vocabulary; KV cache with 16-bit "
        "numbers. Count: embedding V·C (twice when the output matrix is separate) + per layer W_q, W_o (C·H·D "
        "each), W_k, W_v (C·G·D each, plus Q, K, V biases in Qwen2.5), three SwiGLU matrices (C·F each) and two "
        "norm gains, + the final norm. V is the embedding's row count (Qwen2.5: 151,936 rows, more than its "
        "tokenizer's 151,643 regular and 22 control tokens). Llama 2 names its sizes by rounded labels: 7B and 13B "
        "have exactly LLaMA 7B's and 13B's shapes and are compared with the counts LLaMA's Table 2 prints; 70B with "
        "its label. Sources per row: assets/llama_configs.json.",
        "L 层数，C 宽度，H 查询头数，G 键/值头数，F SwiGLU 宽度，V 词表大小；键值缓存按 16 位数值计算。"
        "计数：嵌入 V·C（输出矩阵独立时算两次）+ 每层 W_q、W_o（各 C·H·D）、W_k、W_v（各 C·G·D，Qwen2.5 另有 "
        "Q、K、V 偏置）、三个 SwiGLU 矩阵（各 C·F）和两个归一化增益，+ 最终归一化。V 是嵌入矩阵的行数"
        "（Qwen2.5：151,936 行，多于其分词器的 151,643 个普通词元和 22 个控制词元）。Llama 2 用取整后的标签命名"
        "规模：7B 和 13B 与 LLaMA 7B、13B 的形状完全相同，因此与 LLaMA 表 2 给出的参数量对比；70B 与其标签对比。"
        "每行的出处见 assets/llama_configs.json。",
    ),
    "llama.calc.title": ("Calculator", "计算器"),
    "llama.calc.preset": ("Start from", "起始配置"),
    "llama.calc.n_layers": ("layers L", "层数 L"),
    "llama.calc.dim": ("d_model C", "宽度 C"),
    "llama.calc.n_heads": ("heads H", "头数 H"),
    "llama.calc.n_kv_heads": ("KV heads G", "键/值头 G"),
    "llama.calc.hidden": ("SwiGLU F", "SwiGLU F"),
    "llama.calc.vocab": ("vocabulary V", "词表 V"),
    "llama.calc.context": ("context", "上下文"),
    "llama.calc.tied": ("output tied to the embedding", "输出层与嵌入共享"),
    "llama.calc.qkv_bias": ("biases on Q, K, V", "Q、K、V 带偏置"),
    "llama.calc.bytes": ("Cached numbers", "缓存数值的精度"),
    "llama.bytes.1": ("8-bit", "8 位"),
    "llama.bytes.2": ("16-bit", "16 位"),
    "llama.bytes.4": ("32-bit", "32 位"),
    "llama.m.params": ("Parameters", "参数量"),
    "llama.m.params.help": (
        "Counted from the configuration; the embedding (and a separate output matrix) make {embedding} of it.",
        "由配置计算；其中嵌入（及独立的输出矩阵）占 {embedding}。",
    ),
    "llama.vs_published": ("vs published {published}", "对比公布值 {published}"),
    "llama.label": (" (label {label})", "（标签 {label}）"),
    "llama.label_is": (" (label)", "（标签）"),
    "llama.m.kv_per_token": ("KV cache per token", "每个词元的键值缓存"),
    "llama.m.kv_per_token.help": (
        "2 · L · G · D · bytes, with D = C / H = {D}: one key and one value per key/value head per layer.",
        "2 · L · G · D · 字节数，其中 D = C / H = {D}：每层每个键/值头一个键和一个值。",
    ),
    "llama.m.kv_context": ("KV cache, full context", "键值缓存（满上下文）"),
    "llama.m.kv_context.help": (
        "The per-token cache times the context length, for one sequence; a batch multiplies it again.",
        "每词元缓存乘以上下文长度，一条序列的量；批量推理还要再乘以批大小。",
    ),
    "llama.m.ffn_ratio": ("F / (⅔ · 4C)", "F / (⅔ · 4C)"),
    "llama.m.ffn_ratio.help": (
        "1 is LLaMA's rule exactly; above 1 the feed-forward network is wider than the rule.",
        "等于 1 时恰好符合 LLaMA 的规则；大于 1 表示前馈网络比该规则更宽。",
    ),
    "llama.calc.source": ("Source: {source}.", "出处：{source}。"),
    "llama.calc.custom": (
        "Changed from {name}: no published count to compare with.",
        "已在 {name} 的基础上修改：没有可对比的公布值。",
    ),
    # 5 · Qwen2.5
    "llama.qwen.title": ("5 · Where Qwen2.5 departs (2412.15115)", "5 · Qwen2.5 的不同之处（2412.15115）"),
    "llama.qwen.bias": (
        "**Biases on Q, K, V.** Qwen2.5 adds a bias to the query, key and value projections, while LLaMA has no "
        "bias anywhere. That is H·D + 2·G·D numbers per layer: {n:,} in the 0.5B model.",
        "**Q、K、V 带偏置。** Qwen2.5 给查询、键、值投影加上偏置，而 LLaMA 处处没有偏置。"
        "每层多 H·D + 2·G·D 个数：0.5B 模型中为 {n:,} 个。",
    ),
    "llama.qwen.yarn": (
        "**YaRN for long context.** To read beyond its training length, Qwen2.5 rescales RoPE with YaRN (2309.00071) "
        "together with Dual Chunk Attention, on a RoPE base of 1,000,000; the report gives 128K tokens of context "
        "from 7B up. The RoPE page applies YaRN to our model.",
        "**用 YaRN 处理长上下文。** 为了读取超出训练长度的文本，Qwen2.5 用 YaRN（2309.00071）并结合双块注意力"
        "（Dual Chunk Attention）重新缩放 RoPE，RoPE 基数为 1,000,000；报告给出 7B 及以上模型的上下文为 128K 词元。"
        "RoPE 页面在我们的模型上演示了 YaRN。",
    ),
    "llama.qwen.tied": (
        "**Tied embeddings in the small models.** 0.5B, 1.5B and 3B use one matrix for the input embedding and the "
        "output layer; 7B and larger keep two. In 0.5B that matrix alone is {emb} of {total} parameters ({share:.0%}).",
        "**小模型共享嵌入。** 0.5B、1.5B 和 3B 的输入嵌入与输出层共用一个矩阵；7B 及以上各用一个。"
        "在 0.5B 中，仅这个矩阵就占 {total} 个参数中的 {emb}（{share:.0%}）。",
    ),
    # paper vs here
    "llama.pvh.size": ("size", "规模"),
    "llama.pvh.size.paper": (
        "LLaMA 7B: 32 layers, d = 4096, 32 heads (Table 2); up to 65B",
        "LLaMA 7B：32 层，d = 4096，32 个头（表 2）；最大 65B",
    ),
    "llama.pvh.here_model": (
        "{L} layers, C = {C}, {H} query heads, F = {F}",
        "{L} 层，C = {C}，{H} 个查询头，F = {F}",
    ),
    "llama.pvh.data": ("data", "数据"),
    "llama.pvh.data.paper": (
        "1.0T tokens (7B, 13B) to 1.4T (33B, 65B) of public data; Llama 2: 2T",
        "1.0T（7B、13B）到 1.4T（33B、65B）个公开数据词元；Llama 2：2T",
    ),
    "llama.pvh.data.here": (
        "Shakespeare, 1.6M tokens, 612 steps of 32 × 128 tokens, context 128",
        "莎士比亚文本，160 万词元，612 步、每步 32 × 128 个词元，上下文 128",
    ),
    "llama.pvh.attn": ("attention", "注意力"),
    "llama.pvh.attn.paper": (
        "LLaMA: multi-head; Llama 2: grouped-query in 34B and 70B (70B: 8 key/value heads)",
        "LLaMA：多头；Llama 2：34B 和 70B 使用分组查询（70B：8 个键/值头）",
    ),
    "llama.pvh.attn.here": (
        "4 query heads with 2 key/value heads; siblings with 4 and with 1",
        "4 个查询头、2 个键/值头；兄弟模型分别为 4 个和 1 个",
    ),
    "llama.pvh.result": ("headline result", "主要结果"),
    "llama.pvh.result.paper": (
        "LLaMA-13B beats GPT-3 (175B) on most benchmarks; LLaMA-65B is competitive with Chinchilla-70B and PaLM-540B",
        "LLaMA-13B 在多数基准上超过 GPT-3（175B）；LLaMA-65B 与 Chinchilla-70B、PaLM-540B 不相上下",
    ),
    "llama.pvh.result.here": (
        "{bpc:.4f} validation bits per character against {base:.4f} for a GPT-2-style baseline trained beside it",
        "验证集每字符比特数 {bpc:.4f}，同时训练的 GPT-2 风格基线为 {base:.4f}",
    ),
    "llama.pvh.output": ("output layer", "输出层"),
    "llama.pvh.output.paper": ("a matrix of its own", "独立的矩阵"),
    "llama.pvh.output.here": ("tied to the token embedding", "与词元嵌入共享"),
    "llama.pvh.dep.tied": (
        "The output layer reuses the embedding matrix, as our GPT baseline does: at 2,048 × 192 a separate one would "
        "add a fifth to the parameters.",
        "输出层复用嵌入矩阵，与我们的 GPT 基线相同：在 2,048 × 192 的规模下，单独的输出矩阵会让参数量增加约五分之一。",
    ),
    "llama.pvh.dep.siblings": (
        "llama ran on a 960 s step-time budget beside a GPT-2-style baseline and took 612 optimiser steps; its two "
        "siblings run exactly those 612 steps on the same batches, so the three differ only in G.",
        "llama 与一个 GPT-2 风格的基线并行、按 960 秒的步时预算训练，共走了 612 步优化；"
        "两个兄弟模型在相同的批次上恰好走这 612 步，所以三者只在 G 上不同。",
    ),
    "llama.card.title": ("Model cards", "模型卡"),
    "llama.card.missing": ("Not installed.", "未安装。"),
    "llama.card.params": ("Parameters (card)", "参数量（模型卡）"),
    "llama.card.val_bpc": ("Validation bits per character", "验证集每字符比特数"),
    "llama.card.caption": ("`{command}` · {steps} steps", "`{command}` · {steps} 步"),
    "llama.explain": (
        "**What to take away.** RMSNorm keeps LayerNorm's rescaling and drops its centring, which our model shows "
        "to matter little where the stream's mean is small. SwiGLU replaces a fixed activation by a learned gate "
        "and pays for the third matrix with a narrower hidden layer (⅔ · 4d). Grouped-query attention cuts the KV "
        "cache by H/G, which is what limits long sequences and large batches when serving. LLaMA 2302.13971, "
        "Llama 2 2307.09288, GQA 2305.13245, Qwen2.5 2412.15115.",
        "**要点。** RMSNorm 保留了 LayerNorm 的缩放，去掉了中心化；我们的模型显示，在残差流均值很小的地方这几乎"
        "没有影响。SwiGLU 用一个学习得到的门代替固定的激活函数，并以更窄的隐藏层（⅔ · 4d）抵消第三个矩阵的开销。"
        "分组查询注意力把键值缓存缩小为 1/(H/G)，而推理服务中限制长序列和大批量的正是这个缓存。"
        "LLaMA 2302.13971，Llama 2 2307.09288，GQA 2305.13245，Qwen2.5 2412.15115。",
    ),
    # errors
    # a real model (the picker)
    "llama.real.intro": (
        "Probing **{name}**, a real model converted into our LLaMA class: {L} layers, {H} query heads sharing {G} "
        "key/value heads. Sections 1–3 run on it (at most {max} tokens, to keep each move quick on a CPU); the MHA / "
        "GQA / MQA siblings and the writing race stay ours, since only models trained alike compare fairly.",
        "正在探查 **{name}**：一个转换成我们 LLaMA 类的真实模型，{L} 层，{H} 个查询头共享 {G} 个键/值头。"
        "第 1–3 节在它上面运行（最多 {max} 个词元，让每次操作在 CPU 上也很快）；MHA / GQA / MQA 兄弟模型和"
        "生成对比仍用我们的模型，因为只有同样方式训练的模型才能公平比较。",
    ),
    "llama.try.real.do": (
        "In section 3, press **One sentence twice**, keep the layer where it opens ({layer}) and click through the "
        "heads Q0 … Q{last}.",
        "在第 3 节按 **同一句话两遍**，保持打开时的层（{layer}），依次点击 Q0 … Q{last} 各个头。",
    ),
    "llama.try.real.see": (
        "In layer {layer}, heads {heads} copy: from the second copy of the sentence they attend to the token that "
        "followed the first (induction score up to {best:.2f}). They all read {kvs}.",
        "在层 {layer}，头 {heads} 在复制：从句子的第二遍开始，它们关注第一遍中紧随其后的词元"
        "（归纳分数最高 {best:.2f}）。它们都读取 {kvs}。",
    ),
    "llama.try.real.see.one": (
        "In layer {layer}, head {heads} copies: from the second copy of the sentence it attends to the token that "
        "followed the first (induction score {best:.2f}); no other head of the layer reaches half of that. It reads "
        "{kvs}, which the layer's other heads of its group share.",
        "在层 {layer}，头 {heads} 在复制：从句子的第二遍开始，它关注第一遍中紧随其后的词元（归纳分数 {best:.2f}）；"
        "该层其他头都不到它的一半。它读取 {kvs}，同组的其他头也共享这个键/值头。",
    ),
    "llama.try.real.why": (
        "GQA shares keys and values, not queries: each query head still asks its own question of the shared keys, "
        "so heads of one group can do different work. The cache keeps G = {G} heads' keys and values, not H = {H}.",
        "GQA 共享的是键和值，不是查询：每个查询头仍向共享的键提出自己的问题，所以同一组的头可以做不同的事。"
        "缓存只保存 G = {G} 个头的键和值，而不是 H = {H} 个。",
    ),
    "llama.text.help.real": (
        "At most {chars} characters and {tokens} tokens on a real model (a forward pass of every layer with every "
        "probe, on a CPU).",
        "真实模型最多 {chars} 个字符、{tokens} 个词元（在 CPU 上对每一层做带全部探针的前向计算）。",
    ),
    "llama.error.real_tokens": (
        "The text makes {n} tokens; on {name} this page reads at most {max}, to keep each move quick on a CPU. "
        "Shorten it.",
        "文本有 {n} 个词元；在 {name} 上本页最多读取 {max} 个，以便每次操作在 CPU 上也很快。请缩短文本。",
    ),
    "llama.next": (
        "The model's {k} likeliest next tokens here (of {V:,}): {guesses}",
        "模型在此处最可能的 {k} 个下一词元（共 {V:,} 个）：{guesses}",
    ),
    "llama.point.final_short": ("final", "最终"),
    "llama.points_axis": ("norm entering block …, then the final norm", "进入各模块的归一化，最后是最终归一化"),
    # 3 · the probed model's heads
    "llama.gqa.ours": ("Our three siblings, trained alike but for G", "我们的三个兄弟模型：除 G 外训练方式相同"),
    "llama.heads.title": ("{name}: query heads that share keys", "{name}：共享键的查询头"),
    "llama.heads.caption": (
        "{H} query heads read {G} key/value heads, {per} each (query head h reads ⌊h / {per}⌋), in each of {L} "
        "layers. Pick a layer and a head: the bars score every head of the layer on this text, coloured by the "
        "key/value head it reads; the map is the chosen head's attention.",
        "每层 {H} 个查询头读取 {G} 个键/值头，每个键/值头由 {per} 个查询头读取（查询头 h 读取 ⌊h / {per}⌋），"
        "共 {L} 层。选一层和一个头：柱状图给出该层每个头在这段文本上的得分，颜色表示它读取的键/值头；"
        "热图是所选头的注意力。",
    ),
    "llama.heads.layer": ("Layer", "层"),
    "llama.heads.layer.help": (
        "Zero-based. It opens on the layer whose heads copy most on one sentence typed twice.",
        "从 0 开始编号。打开时位于在“同一句话两遍”上复制最强的层。",
    ),
    "llama.heads.head": ("Query head", "查询头"),
    "llama.heads.head.help": ("The head whose attention map is drawn.", "显示其注意力热图的头。"),
    "llama.heads.repeat": ("One sentence twice", "同一句话两遍"),
    "llama.heads.repeat.help": (
        "Put a sentence written twice in the text box: heads that copy (induction heads) show on its second half.",
        "在文本框中放入重复两遍的一句话：复制型的头（归纳头）会在后半段显现。",
    ),
    "llama.heads.no_repeats": (
        "No token of this text occurs twice, so no head can show an induction score; press **One sentence twice**.",
        "这段文本没有重复出现的词元，因此没有头能显示归纳分数；请按 **同一句话两遍**。",
    ),
    "llama.heads.previous": ("previous token", "前一个词元"),
    "llama.heads.induction": ("induction", "归纳"),
    "llama.heads.weight": ("mean attention weight", "平均注意力权重"),
    "llama.heads.scores": (
        "Layer {layer}: weight on the previous token, and on the token after an earlier copy of the query's token.",
        "层 {layer}：对前一个词元的权重，以及对查询词元较早一次出现之后那个词元的权重。",
    ),
    "llama.heads.pattern": (
        "Layer {layer}, head Q{head} (reads KV{kv}): query down, key across.",
        "层 {layer}，头 Q{head}（读取 KV{kv}）：纵轴为查询，横轴为键。",
    ),
    "llama.m.reads": ("Reads", "读取"),
    "llama.m.reads.help": (
        "The key/value head this query head's scores use; {heads} share it ({per} query heads per key/value head).",
        "该查询头计算分数时使用的键/值头；{heads} 共用它（每个键/值头对应 {per} 个查询头）。",
    ),
    "llama.m.previous": ("Previous-token score", "前一词元分数"),
    "llama.m.previous.help": (
        "Mean weight this head puts on the token just before the query.",
        "该头放在查询前一个词元上的平均权重。",
    ),
    "llama.m.induction": ("Induction score", "归纳分数"),
    "llama.m.induction.help": (
        "For queries whose token occurred earlier: mean weight on the token that followed that earlier occurrence "
        "(what an induction head attends to, 2209.11895). – when no token repeats.",
        "对较早出现过的查询词元：放在那次出现之后那个词元上的平均权重（归纳头关注的位置，2209.11895）。"
        "没有重复词元时为 –。",
    ),
    "llama.m.overlap": ("Overlap: same KV / other KV", "重叠：同一 KV / 不同 KV"),
    "llama.m.overlap.help": (
        "Σ min(Aᵢ, Aⱼ) of two heads' attention, averaged over queries and over pairs of heads in this layer: pairs "
        "that read the same key/value head, then pairs that read different ones. 1 = identical patterns.",
        "两个头注意力的 Σ min(Aᵢ, Aⱼ)，对查询和本层的头对取平均：先是读取同一键/值头的头对，再是读取不同"
        "键/值头的头对。1 表示注意力模式完全相同。",
    ),
    # 3 · the real configuration's cache
    "llama.real.title": ("{name}: its cache against MHA and MQA", "{name}：其缓存与 MHA、MQA 对比"),
    "llama.m.real_kv_token": ("KV cache per token (16-bit)", "每个词元的键值缓存（16 位）"),
    "llama.m.real_kv_token.help": (
        "2 · L · G · D · 2 bytes = 2 · {L} · {G} · {D} · 2. Measured from the model's own cache tensors after a "
        "cached forward here: {measured:,} B per token at {nbytes} bytes a number.",
        "2 · L · G · D · 2 字节 = 2 · {L} · {G} · {D} · 2。在这里做一次带缓存的前向计算后，从模型自己的缓存"
        "张量测得：每个词元 {measured:,} B，每个数 {nbytes} 字节。",
    ),
    "llama.m.real_kv_context": ("At its {T:,}-token context", "在 {T:,} 词元的上下文"),
    "llama.m.real_vs_mha": ("Against MHA", "相对 MHA"),
    "llama.m.real_vs_mha.help": (
        "How many times smaller its cache is than the same model with a key/value head per query head.",
        "与每个查询头各有一个键/值头的同一模型相比，缓存小了几倍。",
    ),
    "llama.real.col.kind": ("attention", "注意力"),
    "llama.real.kind.mha": ("MHA (G = H)", "MHA（G = H）"),
    "llama.real.kind.gqa": ("GQA, as released", "GQA（发布版本）"),
    "llama.real.kind.mqa": ("MQA (G = 1)", "MQA（G = 1）"),
    "llama.real.col.kv": ("KV / token, 16-bit", "键值 / 词元（16 位）"),
    "llama.real.col.kv_ctx": ("KV at {T} tokens", "{T} 词元时的键值"),
    "llama.real.note": (
        "Counted by models.llama on {name}'s configuration with G changed, nothing else. Its cache here holds "
        "{nbytes}-byte numbers: {measured:,} B per token measured, {half:,} B in 16 bits, as counted. With MHA one "
        "{T}-token sequence would cache {mha}, with MQA {mqa}; GQA also saves {saved} parameters of W_k and W_v.",
        "由 models.llama 在 {name} 的配置上只改变 G 算出。这里的缓存每个数占 {nbytes} 字节：实测每个词元 "
        "{measured:,} B，换成 16 位为 {half:,} B，与计算一致。用 MHA 时一条 {T} 词元的序列要缓存 {mha}，"
        "用 MQA 为 {mqa}；GQA 还省下了 W_k 和 W_v 的 {saved} 个参数。",
    ),
    # knock-outs (app/llama/knockout.py)
    "llama.ko.title": ("Knock out a part of the model", "敲除模型的一部分"),
    "llama.ko.caption": (
        "Run {name} on held-out windows of {T} tokens (plays it never trained on) with one part switched off, and "
        "compare with the plain run: which parts the text needs.",
        "在留出文本（模型从未训练过的剧本）的 {T} 词元窗口上运行 {name}，关掉其中一部分，再与原始运行比较："
        "看文本需要哪些部分。",
    ),
    "llama.ko.caption.real": (
        "Run {name} on windows of {T} tokens from the plays we hold out from our own models, with one part switched "
        "off, and compare with the plain run: which parts the text needs. These plays are not held out for {name}: "
        "it was pre-trained on trillions of tokens of web text, which may well include Shakespeare.",
        "在我们为自己的模型留出的剧本中取 {T} 词元的窗口，让 {name} 关掉其中一部分运行，再与原始运行比较："
        "看文本需要哪些部分。这些剧本对 {name} 并不是留出数据：它在数万亿词元的网络文本上预训练过，"
        "其中很可能包括莎士比亚。",
    ),
    "llama.ko.read": (
        "Measured on our model: block 0's MLP is the one part it cannot do without (zeroed, +2.2 bits per "
        "character); a whole block's attention costs at most about +0.2, any single head less than +0.05.",
        "在我们的模型上测得：块 0 的 MLP 是唯一离不开的部分（置零后每字符比特 +2.2）；整块注意力最多约 +0.2，"
        "任一单个头不到 +0.05。",
    ),
    "llama.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "llama.error.chars": (
        "The text has {n} characters; at most {max} are allowed.",
        "文本有 {n} 个字符；最多允许 {max} 个。",
    ),
    "llama.error.tokens": (
        "The text makes {n} tokens; the model reads at most {max} (its training context).",
        "文本有 {n} 个词元；模型最多读取 {max} 个（训练时的上下文长度）。",
    ),
    "llama.error.choice": ("That choice is not available.", "该选项不可用。"),
    "llama.error.n": ("Generate between 1 and {max} tokens.", "生成的词元数须在 1 到 {max} 之间。"),
    "llama.error.room": (
        "The prompt has {n} tokens and {new} more would pass the {max}-token context; shorten one of them.",
        "提示有 {n} 个词元，再生成 {new} 个就会超过 {max} 个词元的上下文；请缩短其中之一。",
    ),
    "llama.error.range": ("Each value must lie between {lo:,} and {hi:,}.", "每个值都必须在 {lo:,} 到 {hi:,} 之间。"),
    "llama.error.heads": (
        "d_model {dim} does not divide into {heads} heads.",
        "宽度 {dim} 不能被 {heads} 个头整除。",
    ),
    "llama.error.kv_heads": (
        "{heads} query heads do not divide into {kv} key/value heads.",
        "{heads} 个查询头不能平均分给 {kv} 个键/值头。",
    ),
}
