"""Strings of the Mamba page (2312.00752)."""

STRINGS = {
    "mamba.intro": (
        "A Mamba layer keeps a fixed-size state h and updates it at every token: $h_t = \\bar{A}_t\\, h_{t-1} "
        "+ \\bar{B}_t\\, x_t$. "
        "What makes it a *selective* state space model is that the step size Δ, the write vector B and the read "
        "vector C are computed from the input: from the current token and, through a short convolution, the few "
        'tokens before it. A large Δ means "forget the past and write this token in"; a small Δ means "let this '
        'token pass and keep the state". Below, every number comes from running a model: our small trained ones, or '
        "a real Mamba-130M on your text where this machine has it.",
        "Mamba 层维护一个固定大小的状态 h，并在每个词元处更新它：$h_t = \\bar{A}_t\\, h_{t-1} + \\bar{B}_t\\, "
        "x_t$。它之所以是"
        "“选择性状态空间模型”，在于步长 Δ、写入向量 B 和读出向量 C 都由输入计算得到：来自当前词元，并通过一个短卷积"
        "来自它之前的几个词元。Δ 大意味着“忘掉过去，把这个词元写进来”；Δ 小意味着“让这个词元过去，保持原有状态”。"
        "下面的每个数字都来自实际运行的模型：我们训练的小模型，或在本机有它时，在你的文本上运行的真实 Mamba-130M。",
    ),
    # guided experiment
    "mamba.try.do": (
        "Keep *Selective copying* and layer 0 (the figure's own slider), and look at the red bars at the top of the "
        "figure: where are they tall? "
        "Change the *Instance* a few times, then scroll to the comparison with the LTI model.",
        "保持“选择性复制”和层 0（图自带的滑块），看图顶部的红色柱：哪里高？"
        "换几次“样例”，然后滚动到与 LTI 模型的对比部分。",
    ),
    "mamba.try.see": (
        "Δ moves at each letter and the {k} tokens after it, and stays still along the noise: the readout *near "
        "letters* is {median:.0%} at the median of instances 0–{last} (never below {low:.0%}), although those "
        "positions are only {positions:.0%} of the input. On these instances Mamba copies {acc:.1%} of the letters; "
        "the LTI model, whose Δ never moves, {lti:.1%}.",
        "Δ 在每个字母及其后 {k} 个词元处变动，在噪声上保持不动：在样例 0–{last} 上，读数“字母附近”的中位数是 "
        "{median:.0%}（从未低于 {low:.0%}），而这些位置只占输入的 {positions:.0%}。在这些样例上，Mamba 复制对了 "
        "{acc:.1%} 的字母；Δ 从不变化的 LTI 模型只有 {lti:.1%}。",
    ),
    "mamba.try.why": (
        "Δ, B and C are computed from the input through a width-{w} convolution, so a letter moves them at its own "
        "position and at the {k} after it. A large Δ writes into the state; Δ at rest lets the noise pass. The LTI "
        "model applies the same Δ, B and C at every step, so it cannot choose what to store.",
        "Δ、B、C 是经过一个宽度为 {w} 的卷积从输入算出来的，所以一个字母会在它自己的位置以及其后 {k} 个位置上改变它们。"
        "Δ 大时写入状态；Δ 处于常态时让噪声通过。LTI 模型在每一步都用同样的 Δ、B、C，因此无法选择存什么。",
    ),
    # in the paper vs here
    "mamba.pvh.block": ("The block", "模块结构"),
    "mamba.pvh.block.paper": (
        "selective SSM with input-dependent Δ, B, C, a short causal convolution and a gate; a fused, "
        "hardware-aware scan on the GPU",
        "Δ、B、C 依赖输入的选择性 SSM，加一个短因果卷积和门控；在 GPU 上用融合的、硬件感知的扫描实现",
    ),
    "mamba.pvh.block.here": (
        "the same block: {layers} layers, d_model {d_model}, {d_in} channels, state {d_state} per channel, "
        "convolution width {w}; the scan in plain PyTorch",
        "相同的模块：{layers} 层，d_model {d_model}，{d_in} 个通道，每通道状态 {d_state}，卷积宽度 {w}；"
        "扫描用普通 PyTorch 实现",
    ),
    "mamba.pvh.tasks": ("Synthetic tasks", "合成任务"),
    "mamba.pvh.tasks.paper": (
        "selective copying and induction heads; trained on induction at length 256, it still solves it at about "
        "one million tokens",
        "选择性复制与归纳头；在长度 256 上训练归纳头任务，到约一百万个词元时仍能解决",
    ),
    "mamba.pvh.tasks.here": (
        "selective copying {copy:.1%} (LTI baseline {lti:.1%}); induction trained at length 64: {ind:.1%} at 64, "
        "{ind4:.1%} at 256",
        "选择性复制 {copy:.1%}（LTI 基线 {lti:.1%}）；归纳头在长度 64 上训练：长度 64 上 {ind:.1%}，256 上 {ind4:.1%}",
    ),
    "mamba.pvh.lm": ("Language modelling", "语言建模"),
    "mamba.pvh.lm.paper": (
        "Mamba-3B matches Transformers twice its size",
        "Mamba-3B 与两倍规模的 Transformer 相当",
    ),
    "mamba.pvh.lm.here": (
        "{lm_params:,} parameters, {lm_tokens:.1f}M training tokens of Shakespeare: {bpc:.2f} bits per character "
        "on held-out plays",
        "{lm_params:,} 个参数，{lm_tokens:.1f}M 个莎士比亚训练词元：在留出剧本上每字符 {bpc:.2f} 比特",
    ),
    "mamba.pvh.speed": ("Speed", "速度"),
    "mamba.pvh.speed.paper": (
        "about 5× the inference throughput of Transformers of similar size; linear in sequence length",
        "推理吞吐量约为同等规模 Transformer 的 5 倍；随序列长度线性增长",
    ),
    "mamba.pvh.speed.here": (
        "timed live at the bottom of the page on this server's CPU, one token at a time: a constant state against a "
        "growing KV cache",
        "在本页底部用这台服务器的 CPU 实时计时，一次生成一个词元：恒定的状态对比不断增长的 KV 缓存",
    ),
    "mamba.pvh.dep.small": (
        "Everything is small: state size {d_state} per channel, {layers} layers, tasks of length 64.",
        "一切都很小：每通道状态大小 {d_state}，{layers} 层，任务长度 64。",
    ),
    "mamba.pvh.dep.scan": (
        "The scan runs in PyTorch (a log-depth prefix scan; the plain loop in training), not the paper's fused CUDA "
        "kernel that keeps the state in fast on-chip memory, so timings here say nothing about that kernel.",
        "扫描用 PyTorch 实现（对数深度的前缀扫描；训练时用普通循环），而不是论文中把状态留在片上高速存储里的融合 CUDA "
        "内核，所以这里的计时与那个内核无关。",
    ),
    "mamba.pvh.dep.euler": (
        "Ā = exp(ΔA) is the zero-order hold, but B̄ = ΔB is a simpler Euler step, as the paper's own code does.",
        "Ā = exp(ΔA) 用零阶保持，而 B̄ = ΔB 是更简单的欧拉步，与论文自己的代码相同。",
    ),
    "mamba.pvh.dep.lti": (
        "The LTI baseline is this same network with Δ, B and C learned constants (S4-like), trained with the same "
        "budget.",
        "LTI 基线是同一个网络，只是 Δ、B、C 换成学到的常数（类似 S4），训练预算相同。",
    ),
    # input
    "mamba.source": ("Input", "输入"),
    "mamba.source.copy": ("Selective copying", "选择性复制"),
    "mamba.source.induction": ("Induction heads", "归纳头"),
    "mamba.source.text": ("Your text (language model)", "你的文本（语言模型）"),
    "mamba.seed": ("Instance (random seed)", "样例（随机种子）"),
    "mamba.seed.help": (
        "Each seed generates a new instance of the task; none of them was seen in training.",
        "每个种子生成任务的一个新样例；训练时从未见过这些样例。",
    ),
    "mamba.length": ("Sequence length", "序列长度"),
    "mamba.length.help": (
        "The model was trained on length 64 only; 256 is 4× longer than anything it saw.",
        "模型只在长度 64 上训练过；256 是它见过的最长序列的 4 倍。",
    ),
    "mamba.text": ("Text", "文本"),
    "mamba.text.help": (
        "English works best: the model read only Shakespeare. At most {max} characters.",
        "英文效果最好：模型只读过莎士比亚。最多 {max} 个字符。",
    ),
    "mamba.legend.copy": (
        "Legend: · noise, A–H data tokens to remember, ? copy marker (at the i-th ? the model must output the i-th "
        "data token).",
        "图例：· 噪声，A–H 需要记住的数据词元，? 复制标记（在第 i 个 ? 处模型要输出第 i 个数据词元）。",
    ),
    "mamba.legend.induction": (
        "Legend: a–p random tokens, # the trigger. After the last # the model must output the token that followed "
        "the first #.",
        "图例：a–p 随机词元，# 触发词元。在最后一个 # 处，模型要输出第一个 # 之后的那个词元。",
    ),
    # metrics
    "mamba.m.positions": ("Positions", "位置数"),
    "mamba.m.accuracy": ("Accuracy on this instance", "本样例准确率"),
    "mamba.readout.letter": (
        "Δ moves most after the letter {letter!r} (t = {t}): {v:.2f} at t = {at}",
        "Δ 在字母 {letter!r}（t = {t}）之后变动最大：t = {at} 处 {v:.2f}",
    ),
    "mamba.readout.peak": (
        "Δ moves most at {token!r} (t = {t}): {v:.2f}",
        "Δ 在 {token!r}（t = {t}）处变动最大：{v:.2f}",
    ),
    "mamba.readout.near": (
        "near letters: {share:.0%} of Δ's movement ({positions:.0%} of the positions)",
        "字母附近：Δ 变动的 {share:.0%}（占位置的 {positions:.0%}）",
    ),
    "mamba.readout.near.help": (
        "Near letters: a letter and the {k} positions after it, whose convolution window holds it; the share is of "
        "all Δ movement in the layer before the copy markers, and the positions' own share is what it would be if Δ "
        "moved alike everywhere.",
        "字母附近：字母及其后 {k} 个位置（它们的卷积窗口里有这个字母）；比例是本层复制标记之前全部 Δ 变动中的占比，"
        "括号里是这些位置本身的占比，即 Δ 在各处变动相同时的比例。",
    ),
    "mamba.strip.y": ("Δ moves", "Δ 变动"),
    "mamba.m.next": ("Predicted next token", "预测的下一个词元"),
    "mamba.h.outputs": ("What the model answers", "模型的回答"),
    "mamba.col.position": ("position", "位置"),
    "mamba.col.target": ("target", "正确答案"),
    "mamba.col.mamba": ("Mamba", "Mamba"),
    "mamba.col.lti": ("LTI baseline", "LTI 基线"),
    # delta
    "mamba.h.delta": ("Δ: how strongly each token is written into the state", "Δ：每个词元被写入状态的力度"),
    "mamba.layer": ("Layer", "层"),
    "mamba.map": ("Show", "显示"),
    "mamba.map.delta": ("Δ", "Δ"),
    "mamba.map.abar": ("Ā = exp(ΔA)", "Ā = exp(ΔA)"),
    "mamba.map.bc": ("B and C", "B 和 C"),
    "mamba.map.hnorm": ("‖hₜ‖", "‖hₜ‖"),
    "mamba.delta.title": ("Δ of layer {layer}: time × channel", "层 {layer} 的 Δ：时间 × 通道"),
    "mamba.channel": ("channel", "通道"),
    "mamba.state_index": ("state entry", "状态分量"),
    "mamba.strip.delta": (
        "How far Δ leaves its resting value at each token: mean over channels of |log(Δₜ / median Δ)| "
        "(a taller, darker bar = more movement; the first {k} positions, where the convolution still sees the "
        "padding before the sequence, are left at 0). The slider under the figure moves through the layers.",
        "每个词元处 Δ 偏离其常态值的程度：各通道 |log(Δₜ / Δ 中位数)| 的平均（柱越高、颜色越深变动越大；前 {k} 个"
        "位置的卷积还能看到序列之前的填充，记为 0）。图下方的滑块逐层移动。",
    ),
    "mamba.explain.delta": (
        "Δ is a step size: Ā = exp(ΔA) with A < 0, so a large Δ drives Ā towards 0 (the old state is wiped) and "
        "gives the new input a large weight ΔB. A small Δ keeps Ā near 1 and lets the token slide past. Each channel "
        "has its own resting Δ (the horizontal bands). On selective copying, look at the columns: Δ leaves its "
        "resting value at each letter and at the next few tokens, whose width-4 convolution window still holds the "
        "letter (the movement is often largest one or two tokens after it), and stays put over the noise. Δ is not "
        "the only thing that selects: B and C move with the input too (see B and C), so the Δ spikes are moderate "
        "rather than all-or-nothing.",
        "Δ 是一个步长：Ā = exp(ΔA)，且 A < 0，所以 Δ 越大，Ā 越接近 0（旧状态被抹去），新输入的权重 ΔB 也越大。"
        "Δ 很小时 Ā 接近 1，这个词元就被“跳过”。每个通道都有自己的常态 Δ（图中的横向条带）。在选择性复制任务中，"
        "请看各列：Δ 在每个字母处、以及其后几个词元处偏离常态值——这些词元宽度为 4 的卷积窗口里仍然有那个字母"
        "（变动往往在字母之后一两个词元处最大）——而在噪声上保持不动。做选择的不只是 Δ：B 和 C 也随输入变化"
        "（见“B 和 C”），所以 Δ 的尖峰是适度的，而不是全有或全无。",
    ),
    # A_bar
    "mamba.h.abar": ("Ā = exp(ΔA): how much of the state survives each step", "Ā = exp(ΔA)：每一步状态保留多少"),
    "mamba.abar.title": (
        "Ā of layer {layer}, averaged over the {n} state entries of each channel",
        "层 {layer} 的 Ā（每个通道 {n} 个状态分量取平均）",
    ),
    "mamba.abar.range": (
        "smallest (most forgetting) {low:.3f}, median {median:.3f}",
        "最小（遗忘最多）{low:.3f}，中位数 {median:.3f}",
    ),
    "mamba.explain.abar": (
        "A is learned but fixed per channel and state entry (initialised to −1, −2, …, −n as in S4D-real), so Ā — "
        "the fraction of each state entry kept from one step to the next — moves with the input only through Δ: "
        "dark columns are tokens at which the layer forgets. It is not the whole selection: B (what is written) and "
        "C (what is read) also change from token to token.",
        "A 是学到的，但对每个通道和状态分量是固定的（按 S4D-real 初始化为 −1, −2, …, −n），所以 Ā——每个状态分量从"
        "上一步保留到下一步的比例——只通过 Δ 随输入变化：深色的列就是该层遗忘的词元。但这不是选择的全部：B（写入什么）"
        "和 C（读出什么）也随词元而变。",
    ),
    # B and C
    "mamba.h.bc": ("B and C: what is written and what is read, per token", "B 和 C：每个词元写入什么、读出什么"),
    "mamba.b.title": ("B (write) of layer {layer}", "层 {layer} 的 B（写入）"),
    "mamba.c.title": ("C (read) of layer {layer}", "层 {layer} 的 C（读出）"),
    "mamba.explain.bc": (
        "$B_t$ chooses in which of the n state directions the current token is stored; $C_t$ chooses which directions "
        "are read out into $y_t$. In Mamba both change from token to token; in the LTI baseline they are the same "
        "columns at every position.",
        "$B_t$ 决定当前词元存入 $n$ 个状态方向中的哪些；$C_t$ 决定读出哪些方向得到 $y_t$。在 Mamba 中两者随词元而变；"
        "在 LTI 基线中，每个位置上都是同样的列。",
    ),
    # h norm
    "mamba.h.hnorm": ("The hidden state over time", "隐状态随时间的变化"),
    "mamba.hnorm.y": ("‖hₜ‖ (all channels and entries)", "‖hₜ‖（所有通道和分量）"),
    "mamba.hnorm.series": ("layer {layer}", "层 {layer}"),
    "mamba.explain.hnorm": (
        "The state has the same size at every position — here {size} numbers per layer — however long the input. "
        "Its norm rises where the layer writes and falls where it forgets. The layers' norms differ in scale (the "
        "axis is logarithmic).",
        "无论输入多长，状态在每个位置的大小都相同——这里每层 {size} 个数。它的范数在该层写入处上升，在遗忘处下降。"
        "各层范数的量级不同（纵轴为对数坐标）。",
    ),
    "mamba.explain.hnorm.copy": (
        "On selective copying, layer 0's norm steps up at each letter and the few tokens after it, stays almost "
        "flat along the noise (neither taking it in nor forgetting), rises again at the first copy markers, then "
        "falls as the markers are read out.",
        "在选择性复制任务中，层 0 的范数在每个字母及其后几个词元处阶梯式上升，在噪声上几乎持平（既不吸收也不遗忘），"
        "在最初几个复制标记处再次上升，随后在读出这些标记时下降。",
    ),
    # comparison
    "mamba.h.compare": (
        "Selective copying: Mamba against an LTI state-space model",
        "选择性复制：Mamba 对比 LTI 状态空间模型",
    ),
    "mamba.compare.caption": (
        "The same instance (seed {seed}) through both models. The LTI baseline is the same network with Δ, B and C "
        "replaced by learned constants, trained with the same budget.",
        "两个模型处理同一个样例（种子 {seed}）。LTI 基线是同一个网络，只是把 Δ、B、C 换成学到的常数，训练预算相同。",
    ),
    "mamba.compare.y": ("Δ movement, layer {layer}", "Δ 变动，层 {layer}"),
    "mamba.compare.marks": ("tokens to remember", "需要记住的词元"),
    "mamba.m.acc_mamba": ("Mamba accuracy", "Mamba 准确率"),
    "mamba.m.acc_lti": ("LTI accuracy", "LTI 准确率"),
    "mamba.m.acc_heldout": ("held out: {acc:.1%}", "留出集：{acc:.1%}"),
    "mamba.strip.mamba": ("Mamba: Δ movement per token", "Mamba：每个词元处 Δ 的变动"),
    "mamba.strip.lti": (
        "LTI: Δ movement per token (none: Δ is the same at every token)",
        "LTI：每个词元处 Δ 的变动（没有：Δ 在每个词元处都相同）",
    ),
    "mamba.explain.compare": (
        "**Why an LTI system cannot select.** With Δ, B and C fixed, the SSM is a linear time-invariant filter: its "
        "output is a convolution of the input with one kernel K = (CB̄, CĀB̄, CĀ²B̄, …). The kernel weighs a token by "
        "how long ago it came, never by what it is, so noise and data are mixed into the state alike, and the "
        "positions of the data change from instance to instance. Mamba's Δ, B and C depend on the input: it can "
        "open the gate on a letter and close it on the noise, so the state holds what has to be copied.",
        "**为什么 LTI 系统无法选择。** 当 Δ、B、C 固定时，SSM 是一个线性时不变滤波器：输出是输入与同一个卷积核 "
        "K = (CB̄, CĀB̄, CĀ²B̄, …) 的卷积。这个核只按词元出现的时间远近加权，从不看它是什么，所以噪声和数据被同样地"
        "混入状态，而数据的位置每个样例都不一样。Mamba 的 Δ、B、C 取决于输入：它可以在字母处打开闸门、在噪声处关上，"
        "让状态里保存需要复制的内容。",
    ),
    "mamba.compare.missing": (
        "The LTI baseline checkpoint is not shipped here, so the comparison is hidden.",
        "此处没有 LTI 基线的检查点，因此不显示对比。",
    ),
    # recurrent vs parallel
    "mamba.h.modes": ("Recurrent and parallel: the same numbers", "循环模式与并行模式：结果相同"),
    "mamba.m.diff_seq": ("max |parallel − sequential|", "最大 |并行 − 顺序|"),
    "mamba.m.diff_rec": ("max |parallel − recurrent|", "最大 |并行 − 循环|"),
    "mamba.modes.caption": (
        "Logits of the shown input computed three ways with PyTorch: the parallel scan (log-depth prefix scan, used "
        "by the model's forward and by the ONNX export), the plain sequential loop over t, and step() fed one token "
        "at a time with a constant-size state.",
        "用 PyTorch 以三种方式计算当前输入的 logits：并行扫描（对数深度的前缀扫描，模型前向与 ONNX 导出都用它）、"
        "按 t 逐步的普通顺序循环，以及每次喂一个词元、状态大小恒定的 step()。",
    ),
    "mamba.h.decode": (
        "Generating token by token: constant state against a growing KV cache",
        "逐词元生成：恒定状态对比不断增长的 KV 缓存",
    ),
    "mamba.decode.measure": ("Measure", "测量"),
    "mamba.decode.again": ("Measure again", "重新测量"),
    "mamba.decode.ask": (
        "Press Measure to generate {n} tokens one at a time on Mamba and on GPT in this server process and time "
        "every step. It takes a few seconds, longer while others use the server; a bar shows the progress.",
        "点击“测量”，在本服务器进程中用 Mamba 和 GPT 各逐个生成 {n} 个词元，并为每一步计时。需要几秒钟，"
        "服务器繁忙时更久；进度条会显示进度。",
    ),
    "mamba.decode.progress": ("Generating {n} tokens on each model…", "每个模型生成 {n} 个词元中……"),
    "mamba.decode.caption": (
        "Measured in this server process when you pressed Measure: {n} tokens generated greedily one at a time by "
        "{mamba} (step with its state) and by {gpt} (one new row with its KV cache). Times are a running median of "
        "9 steps; other readers' work on the same server adds noise.",
        "在你点击“测量”时于本服务器进程中测得：{mamba}（带状态的 step）和 {gpt}（每步计算一行，带 KV 缓存）各自"
        "逐个贪心生成 {n} 个词元。时间为 9 步的滑动中位数；同一服务器上其他读者的运算会带来噪声。",
    ),
    "mamba.decode.gpt_trained": ("the GPT checkpoint", "GPT 检查点"),
    "mamba.decode.gpt_untrained": (
        "a GPT of the shipped shape with untrained weights, for timing only",
        "一个与发布版同形状、权重未经训练、仅用于计时的 GPT",
    ),
    "mamba.decode.x": ("position of the generated token", "生成词元的位置"),
    "mamba.decode.ms": ("ms per token", "每词元毫秒数"),
    "mamba.decode.kb": ("memory carried (KiB)", "携带的内存（KiB）"),
    "mamba.m.state_kb": ("Mamba state", "Mamba 状态"),
    "mamba.m.cache_kb": ("KV cache at position {n}", "位置 {n} 处的 KV 缓存"),
    "mamba.m.ms_mamba": ("Mamba ms/token", "Mamba 每词元毫秒"),
    "mamba.m.ms_gpt": ("GPT ms/token", "GPT 每词元毫秒"),
    "mamba.m.ms.help": (
        "Median of the first 32 steps → median of the last 32 steps.",
        "前 32 步的中位数 → 最后 32 步的中位数。",
    ),
    "mamba.explain.modes": (
        "**The linear-time claim and its cost.** Training and prompt processing see the whole sequence, so the "
        "recurrence can run as a parallel scan; generation runs it one step at a time. Each step costs the same "
        "and carries the same few kilobytes, so a sequence of length L costs O(L) time and O(1) memory, where "
        "attention needs O(L) work per token and a KV cache that grows with L. The price: everything the model "
        "will ever need must fit into that fixed state. Attention can look back at any token exactly; a state "
        "space model can only use what it chose to keep, and what it let decay is gone. At these short lengths and "
        "this tiny width the Transformer's step time grows only modestly (and the timings are noisy on a shared "
        "machine); what grows plainly, step after step, is the cache's memory.",
        "**线性时间的说法及其代价。** 训练和处理提示时整条序列都已知，递推可以用并行扫描计算；生成时则一步一步地跑。"
        "每一步的代价相同、携带的也是同样几 KB，所以长度为 L 的序列耗时 O(L)、内存 O(1)；而注意力每个词元需要 O(L) "
        "的计算，KV 缓存也随 L 增长。代价在于：模型将来需要的一切都必须装进这个固定的状态。注意力可以精确地回看任何"
        "词元；状态空间模型只能利用它选择保留下来的东西，任其衰减的信息就再也找不回来了。在这么短的长度和这么小的宽"
        "度下，Transformer 每步的时间只是温和地增长（在共享的机器上计时也有噪声）；一步一步明显增长的，"
        "是缓存占用的内存。",
    ),
    "mamba.explain.data": (
        "**The models.** {layers} layers (d_model {d_model}, {d_in} channels, state size {d_state} per channel), "
        "trained on CPU: selective copying of 8 tokens hidden among 64 positions (held-out accuracy {copy:.1%}; the "
        "LTI baseline reaches {lti:.1%} with the same budget) and induction heads at length 64 ({ind:.1%} at 64, "
        "{ind4:.1%} at 256). Paper: Gu & Dao, 2023, arXiv:2312.00752.",
        "**模型。** {layers} 层（d_model {d_model}，{d_in} 个通道，每通道状态大小 {d_state}），在 CPU 上训练：选择性"
        "复制——从 64 个位置中找出 8 个词元（留出集准确率 {copy:.1%}；相同预算的 LTI 基线为 {lti:.1%}），以及长度 64 "
        "的归纳头任务（长度 64 上 {ind:.1%}，长度 256 上 {ind4:.1%}）。论文：Gu & Dao，2023，arXiv:2312.00752。",
    ),
    "mamba.explain.lm": (
        "Our language model (mamba-lm: {layers} layers, d_model {d_model}, {params:,} parameters, trained here on "
        "{tokens:.1f}M tokens) reaches {bpc:.2f} bits per character on held-out plays; {gpt}",
        "我们的语言模型（mamba-lm：{layers} 层，d_model {d_model}，{params:,} 个参数，"
        "在本站训练了 {tokens:.1f}M 个词元）在留出的剧本上达到每字符 {bpc:.2f} 比特；{gpt}",
    ),
    "mamba.explain.lm.gpt": (
        "the GPT page's model reaches {bpc:.2f}, but this is no fair race: the GPT has {params:,} parameters "
        "({ratio_p:.1f}×) and saw {tokens:.1f}M tokens ({ratio_t:.1f}×) in its first training stage alone, then "
        "trained further on repeated text. We have not compared the two at equal parameters and tokens.",
        "GPT 页面的模型为 {bpc:.2f}，但这并不是公平的比较：GPT 有 {params:,} 个参数（{ratio_p:.1f} 倍），仅第一阶段"
        "就训练了 {tokens:.1f}M 个词元（{ratio_t:.1f} 倍），之后还在重复文本上继续训练。我们没有在参数量和词元数都相同"
        "的条件下比较两者。",
    ),
    "mamba.explain.lm.nogpt": ("the GPT model's number is not available here.", "此处没有 GPT 模型的对应数字。"),
    "mamba.none": ("No Mamba checkpoint is shipped here yet.", "此处还没有任何 Mamba 检查点。"),
    # errors
    "mamba.error.empty": ("Type some text for the language model.", "请为语言模型输入一些文本。"),
    "mamba.error.too_long": (
        "The text is {n} tokens long; the page takes at most {max}. Shorten it.",
        "文本长 {n} 个词元；本页最多接受 {max} 个。请缩短。",
    ),
    "mamba.error.too_long_chars": ("At most {max} characters, please.", "最多 {max} 个字符。"),
    "mamba.error.seed": ("The seed must be a whole number from 0 to {max}.", "种子必须是 0 到 {max} 之间的整数。"),
    "mamba.error.length": ("Pick one of these lengths: {lengths}.", "请从这些长度中选择一个：{lengths}。"),
    "mamba.error.source": ("Unknown input kind.", "未知的输入类型。"),
    # a real checkpoint (state-spaces/mamba-130m-hf) on the reader's text
    "mamba.error.too_long_real": (
        "The text is {n} tokens long; the real model takes at most {max} here (it runs on a CPU). Shorten it.",
        "文本长 {n} 个词元；真实模型在这里最多接受 {max} 个（它在 CPU 上运行）。请缩短。",
    ),
    "mamba.real.top": ("The {k} likeliest next tokens after the text", "文本之后最可能的 {k} 个下一个词元"),
    "mamba.col.token": ("token", "词元"),
    "mamba.col.probability": ("probability", "概率"),
    "mamba.hnorm.map": ("‖hₜ‖ of every layer (rows), log scale", "每一层（行）的 ‖hₜ‖，对数刻度"),
    "mamba.map.channel": ("One channel", "单个通道"),
    "mamba.h.channel": ("One channel, token by token: Δ, Ā and the state", "单个通道逐词元：Δ、Ā 与状态"),
    "mamba.channel.pick": ("Channel", "通道"),
    "mamba.channel.help": (
        "One of the layer's {d_in} SSM channels. Each has its own Δ at every token and its own row of A.",
        "该层 {d_in} 个 SSM 通道之一。每个通道在每个词元上有自己的 Δ，也有自己的一行 A。",
    ),
    "mamba.channel.moving": (
        "In layer {layer}, Δ moves most, from token to token, in channels {channels}.",
        "在层 {layer} 中，Δ 随词元变化最大的通道是 {channels}。",
    ),
    "mamba.channel.abar": ("Ā (share of the state kept)", "Ā（保留的状态份额）"),
    "mamba.channel.hnorm": ("‖hₜ‖ of the layer ÷ its maximum", "该层 ‖hₜ‖ ÷ 其最大值"),
    "mamba.channel.y": ("channel {channel}, layer {layer} (log scale)", "通道 {channel}，层 {layer}（对数刻度）"),
    "mamba.explain.channel": (
        "The selection mechanism on one channel. Δ is the step this channel takes at each token, computed from the "
        "token: a large Δ writes the token into the channel's state and lets the old state go — Ā = exp(ΔA), "
        "averaged over the channel's state entries, drops towards 0 — while a small Δ keeps the state (Ā near 1) "
        "and lets the token pass by. That is the gate of the paper's §3.5: Δ plays the role of an RNN's forget "
        "and input gates at once. The grey line is the norm of the whole layer's state.",
        "单个通道上的选择机制。Δ 是该通道在每个词元上迈出的步长，由词元本身算出：Δ 大，就把词元写入该通道的状态并"
        "放掉旧状态——Ā = exp(ΔA)（对该通道的各个状态分量取平均）降向 0；Δ 小，就保留状态（Ā 接近 1），让词元"
        "滑过。这就是论文 §3.5 所说的门：Δ 同时扮演 RNN 的遗忘门和输入门。灰线是整层状态的范数。",
    ),
    "mamba.real.ours_only": (
        "This part is about our models (selective copying, decoding cost), not the real model picked above.",
        "这一部分讲的是我们的模型（选择性复制、解码开销），不是上面选的真实模型。",
    ),
    "mamba.modes.real": (
        "On the real model, the check runs on the first {n} tokens: step() runs the whole stack once per token.",
        "在真实模型上，检查只用前 {n} 个词元：step() 每个词元都要把整个堆栈跑一遍。",
    ),
    # the intervention: Δ clamped
    "mamba.h.clamp": ("Intervention: clamp Δ", "干预：钳制 Δ"),
    "mamba.clamp.missing": (
        "The selective-copying checkpoint is not installed, so there is nothing to intervene on.",
        "未安装选择性复制检查点，无法进行干预。",
    ),
    "mamba.clamp.caption": (
        "Δ of the chosen channels is replaced by a constant where the scan reads it; everything else runs unchanged. "
        "Accuracy and loss over {n} held-out selective-copying instances; the strips and the map show instance {seed}.",
        "在扫描读取 Δ 的位置，把所选通道的 Δ 换成常数，其余一切照常运行。准确率与损失取自 {n} 个留出的选择性复制实例；"
        "色条与热图显示实例 {seed}。",
    ),
    "mamba.clamp.value": ("Clamp Δ to", "将 Δ 钳制为"),
    "mamba.clamp.value.help": (
        "Δ → 0: Ā = exp(ΔA) → 1 and B̄ = ΔB → 0, the state keeps what it had and ignores the input. A large Δ: Ā → 0, "
        "the state forgets and holds only the current token.",
        "Δ → 0：Ā = exp(ΔA) → 1，B̄ = ΔB → 0，状态保留原有内容、忽略输入。Δ 很大：Ā → 0，状态遗忘过去，只保存当前词元。",
    ),
    "mamba.clamp.mode": ("Channels", "通道"),
    "mamba.clamp.mode.all": ("all", "全部"),
    "mamba.clamp.mode.top": ("most input-dependent", "最依赖输入的"),
    "mamba.clamp.mode.range": ("a range", "一段范围"),
    "mamba.clamp.k": ("How many (ranked by Δ movement on held-out instances)", "数量（按留出实例上 Δ 的变动排序）"),
    "mamba.clamp.lo": ("First channel", "起始通道"),
    "mamba.clamp.hi": ("Last channel", "结束通道"),
    "mamba.clamp.acc_before": ("Accuracy, unchanged", "准确率（原样）"),
    "mamba.clamp.acc_after": ("Accuracy, Δ clamped", "准确率（钳制 Δ）"),
    "mamba.clamp.loss_before": ("Loss, unchanged (nats)", "损失（原样，nats）"),
    "mamba.clamp.loss_after": ("Loss, Δ clamped (nats)", "损失（钳制 Δ，nats）"),
    "mamba.clamp.result": (
        "Clamping Δ to {value} on {n} of the {d_in} channels of layer {layer}: accuracy on {instances} held-out "
        "instances goes from **{before:.1%}** to **{after:.1%}** (a uniform guess among the 8 letters: {chance:.1%}); "
        "the loss from {loss_before:.3f} to {loss_after:.3f} nats.",
        "把层 {layer} 的 {d_in} 个通道中的 {n} 个的 Δ 钳制为 {value}：{instances} 个留出实例上的准确率从 "
        "**{before:.1%}** 变为 **{after:.1%}**（在 8 个字母中均匀瞎猜：{chance:.1%}）；损失从 {loss_before:.3f} "
        "变为 {loss_after:.3f} nats。",
    ),
    "mamba.clamp.strip.before": (
        "Unchanged: mean Δ of the chosen channels per token (this instance: {acc:.0%} correct)",
        "原样：所选通道在每个词元处的平均 Δ（本实例正确率 {acc:.0%}）",
    ),
    "mamba.clamp.strip.after": (
        "Clamped: mean Δ of the chosen channels per token (this instance: {acc:.0%} correct)",
        "钳制后：所选通道在每个词元处的平均 Δ（本实例正确率 {acc:.0%}）",
    ),
    "mamba.clamp.map": ("Δ of layer {layer} after clamping (channels down)", "钳制后层 {layer} 的 Δ（纵轴为通道）"),
    "mamba.clamp.torch_only": (
        "Interventions run on the torch model: the {backend} backend selected in the sidebar is not used here.",
        "干预只在 torch 模型上运行：此处不使用侧栏所选的 {backend} 后端。",
    ),
    "mamba.explain.clamp": (
        "**What the paper leads you to expect.** Selection lives in Δ (2312.00752, §3.5.2): a large Δ at a letter "
        "lets it into the state, a small Δ at noise lets the state ignore it. Fix Δ and the layer can no longer "
        "choose: at Δ = 0 the state never takes in a token, at a large Δ it keeps only the latest one. Either way "
        "the letters are lost, and accuracy should fall towards a guess. Clamping only the most input-dependent "
        "channels tests whether selection is concentrated in a few of them.",
        "**论文让我们预期什么。** 选择机制就在 Δ 里（2312.00752，§3.5.2）：字母处 Δ 大，字母进入状态；噪声处 Δ 小，"
        "状态忽略它。把 Δ 固定住，这一层就无法再作选择：Δ = 0 时状态从不接收词元，Δ 很大时它只保留最新的一个。"
        "两种情况下字母都会丢失，准确率应跌向瞎猜。只钳制最依赖输入的通道，可以检验选择是否集中在少数通道上。",
    ),
}
