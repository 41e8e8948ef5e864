"""English and 简体中文 text of the FlashAttention page (arXiv 2205.14135; 2307.08691; 2407.08608)."""

STRINGS = {
    "flash.intro": (
        "Attention needs the N × N matrix softmax(QKᵀ/√d), but it never has to be *stored*. FlashAttention walks "
        "over blocks of K, V and Q small enough to sit in the GPU's on-chip SRAM, keeps a running max m and a running "
        "sum ℓ per query row, and rescales the partial output each time new keys arrive. The result is exact; what "
        "shrinks is the traffic to the slow HBM.",
        "注意力需要 N × N 矩阵 softmax(QKᵀ/√d)，但并不需要把它*存下来*。FlashAttention 按块遍历 K、V 和 Q，"
        "每块小到能放进 GPU 片上的 SRAM；它为每个查询行保存一个累计最大值 m 和一个累计和 ℓ，每来一批新的键就重新缩放"
        "已有的部分输出。结果是精确的；减少的是对慢速 HBM 的读写量。",
    ),
    # ---- step through Algorithm 1 ----
    "flash.step.title": ("Step through Algorithm 1 on real q, k, v", "在真实的 q、k、v 上逐步执行算法 1"),
    "flash.try.do": (
        "Below, with the default text and blocks, keep “causal” on and drag the slider under the figure from the "
        "first tile to the last.",
        "在下方保持默认文本和分块，打开“因果”，把图下方的滑块从第一个分块拖到最后一个。",
    ),
    "flash.try.see": (
        "Of the {tiles} tiles, the {skipped} above the diagonal are never computed; each pass of the outer loop "
        "finishes another block of {block} query rows ({block}, {block2}, … then all {n}), and their "
        "max |O − standard| stays at float32 rounding ({err:.0e} here) at every step.",
        "{tiles} 个分块中，对角线以上的 {skipped} 个从不计算；外层循环每走一轮，就再完成一块 {block} 个查询行"
        "（{block}、{block2}……最后全部 {n} 行），"
        "它们的 max |O − 标准| 在每一步都只是 float32 舍入误差（这里为 {err:.0e}）。",
    ),
    "flash.try.why": (
        "Each tile updates a running maximum and sum per row and rescales what the row had so far (the online "
        "softmax of Algorithm 1), so a row is exact as soon as it has seen its last key block — and the N × N "
        "matrix never exists in slow memory.",
        "每个分块都更新每行的累计最大值与累计和，并重新缩放该行已有的结果（算法 1 的在线 softmax），"
        "所以一行一旦看完它最后的键块"
        "就是精确的——N × N 矩阵从不写入慢速显存。",
    ),
    "flash.step.caption": (
        "q, k and v of one head of the trained GPT (Shakespeare, byte-level BPE) for your text. The outer loop runs "
        "over key/value blocks K_j, V_j, the inner loop over query blocks Q_i, as in the paper's Algorithm 1. Blocks "
        "are numbered from 1, as in the paper.",
        "取自训练好的 GPT（莎士比亚语料，字节级 BPE）某一个头、针对你的文本计算出的 q、k、v。与论文的算法 1 "
        "一样，外层循环遍历键/值块 K_j、V_j，内层循环遍历查询块 Q_i。块的编号与论文一致，从 1 开始。",
    ),
    "flash.text": ("Text (up to 200 characters)", "文本（最多 200 个字符）"),
    "flash.text.help": (
        "Tokenised with the GPT's byte-level BPE; <|endoftext|> comes first, so N = tokens + 1.",
        "用 GPT 的字节级 BPE 分词；开头加上 <|endoftext|>，所以 N = 词元数 + 1。",
    ),
    "flash.mode": ("Block sizes from", "块大小来自"),
    "flash.mode.memory": ("on-chip memory M", "片上内存 M"),
    "flash.mode.blocks": ("B_r and B_c directly", "直接设定 B_r 和 B_c"),
    "flash.memory": ("On-chip memory M (elements)", "片上内存 M（元素个数）"),
    "flash.memory.help": (
        "Algorithm 1, line 1: B_c = ⌈M/4d⌉, B_r = min(⌈M/4d⌉, d), with d = {d} here. Four blocks (Q_i, K_j, V_j, O_i) "
        "must fit in M at once.",
        "算法 1 第 1 行：B_c = ⌈M/4d⌉，B_r = min(⌈M/4d⌉, d)，这里 d = {d}。"
        "四个块（Q_i、K_j、V_j、O_i）必须能同时放进 M。",
    ),
    "flash.block_r": ("B_r (query rows per block)", "B_r（每个查询块的行数）"),
    "flash.block_c": ("B_c (key rows per block)", "B_c（每个键块的行数）"),
    "flash.causal": ("Causal mask", "因果掩码"),
    "flash.causal.help": (
        "GPT is causal: a query sees only keys at or before its position. Tiles wholly above the diagonal are skipped.",
        "GPT 是因果模型：每个查询只能看到它自己及之前位置的键。完全位于对角线上方的块被跳过。",
    ),
    "flash.step": ("Inner iteration (T_c × T_r of them)", "内层迭代（共 T_c × T_r 次）"),
    "flash.step.help": (
        "Iteration s visits key block j = ⌈s / T_r⌉ and query block i = s − (j − 1)·T_r.",
        "第 s 次迭代访问键块 j = ⌈s / T_r⌉ 和查询块 i = s − (j − 1)·T_r。",
    ),
    "flash.readout.start": ("s = 0 · before the loop", "s = 0 · 循环开始之前"),
    "flash.readout.start.note": (
        "Algorithm 1, line 2: O = 0, ℓ = 0 and m = −∞ for every row; no tile loaded yet.",
        "算法 1 第 2 行：每行 O = 0、ℓ = 0、m = −∞；还没有加载任何块。",
    ),
    "flash.m.blocks": ("B_r × B_c · T_r × T_c", "B_r × B_c · T_r × T_c"),
    "flash.m.blocks.help": (
        "Block sizes and how many blocks of Q (T_r = ⌈N/B_r⌉) and of K, V (T_c = ⌈N/B_c⌉); N = {N}, d = {d}.",
        "块大小，以及 Q 的块数（T_r = ⌈N/B_r⌉）和 K、V 的块数（T_c = ⌈N/B_c⌉）；N = {N}，d = {d}。",
    ),
    "flash.m.step": ("Step (j, i)", "步骤 (j, i)"),
    "flash.m.step.help": (
        "Key/value block j (outer loop), query block i (inner loop).",
        "键/值块 j（外层），查询块 i（内层）。",
    ),
    "flash.m.tiles": ("Tiles computed", "已计算的块"),
    "flash.m.tiles.help": (
        "Tiles computed so far / all tiles that need computing. {skipped} of the {total} tiles lie wholly above the "
        "diagonal and are skipped.",
        "到目前为止已计算的块 / 需要计算的块总数。{total} 个块中有 {skipped} 个完全位于对角线上方，被跳过。",
    ),
    "flash.m.rows": ("Rows finished", "已完成的行"),
    "flash.m.rows.help": (
        "Query rows that have seen every key they may attend to: their O is final.",
        "已经见过所有可关注键的查询行：它们的 O 已是最终值。",
    ),
    "flash.m.err": ("max |O − standard|, finished rows", "max |O − 标准|（已完成的行）"),
    "flash.m.err.help": (
        "Largest difference between the tiled O and standard attention (Algorithm 0) over the rows finished so far; "
        "the outputs are about {scale:.2f} in size.",
        "到目前为止已完成的行中，分块计算的 O 与标准注意力（算法 0）之间的最大差；输出的量级约为 {scale:.2f}。",
    ),
    "flash.m.final": ("max |O − standard| at the end", "最终 max |O − 标准|"),
    "flash.m.final.help": (
        "After the last iteration, over all rows: float32 rounding only — the algorithm is exact.",
        "最后一次迭代之后、所有行上的最大差：只有 float32 的舍入误差——算法本身是精确的。",
    ),
    "flash.tiles.title": ("The N × N scores, tile by tile", "N × N 分数矩阵，一块一块地算"),
    "flash.tiles.caption": (
        "Colour: the score S = qkᵀ/√d. Bright tiles are done, pale ones still to come, the red frame is the current "
        "tile (Q_i rows × K_j columns), grey tiles (×) are skipped by the causal mask. The matrix exists here only "
        "to draw it: FlashAttention never holds more than one tile of it.",
        "颜色表示分数 S = qkᵀ/√d。鲜艳的块已经算过，浅色的块尚未计算，红框是当前块（Q_i 的行 × K_j 的列），"
        "灰色块（×）因因果掩码而被跳过。这里算出整个矩阵只是为了画图：FlashAttention 任何时候都只持有其中一块。",
    ),
    "flash.tiles.query": ("query block i", "查询块 i"),
    "flash.tiles.key": ("key block j", "键块 j"),
    "flash.tiles.score": ("score", "分数"),
    "flash.state.title": ("Running max m and sum ℓ per row", "每行的累计最大值 m 与累计和 ℓ"),
    "flash.state.caption": (
        "After this step. A row's m only grows; when it grows, the old ℓ and O are scaled by e^(m_old − m_new). The "
        "grey line is the final value; the shaded band marks the rows of Q_i.",
        "这一步之后的值。每行的 m 只增不减；它变大时，旧的 ℓ 和 O 乘以 e^(m_old − m_new)。灰线是最终值；阴影带标出 "
        "Q_i 的行。",
    ),
    "flash.state.row": ("query position", "查询位置"),
    "flash.state.now": ("after this step", "这一步之后"),
    "flash.state.final": ("final", "最终"),
    "flash.block.title": ("Inside the tile: P̃_ij and the rescaled O_i", "块内部：P̃_ij 与重新缩放的 O_i"),
    "flash.block.caption": (
        "P̃_ij = exp(S_ij − m̃_ij) with the tile's own row max m̃_ij. The new O_i mixes the old O_i, weighted by "
        "ℓ_i e^(m_i − m_new) / ℓ_new (right), with P̃_ij V_j, weighted by e^(m̃_ij − m_new) / ℓ_new (Algorithm 1, "
        "line 12) — still a proper weighted average of the values seen so far.",
        "P̃_ij = exp(S_ij − m̃_ij)，用的是这一块自己的行最大值 m̃_ij。新的 O_i 把旧的 O_i（权重为 "
        "ℓ_i e^(m_i − m_new) / ℓ_new，见右图）与 P̃_ij V_j（权重为 e^(m̃_ij − m_new) / ℓ_new）混合（算法 1 第 12 行）"
        "——它始终是已见过的值向量的一个正规加权平均。",
    ),
    "flash.block.P": ("P̃_ij", "P̃_ij"),
    "flash.block.before": ("O_i before", "之前的 O_i"),
    "flash.block.after": ("O_i after", "之后的 O_i"),
    "flash.block.kept": ("weight of old O_i", "旧 O_i 的权重"),
    "flash.block.O": (
        "O_i, a line per row: before (dotted), after (solid)",
        "O_i，每行一条线：之前（点线），之后（实线）",
    ),
    "flash.block.key": ("key", "键"),
    "flash.block.dim": ("dimension (of d)", "维度（共 d 个）"),
    "flash.block.skipped": (
        "Tile (j = {j}, i = {i}) lies wholly above the diagonal: every score in it is masked, so nothing is loaded "
        "or computed and m, ℓ, O stay as they were.",
        "块 (j = {j}, i = {i}) 完全位于对角线上方：其中每个分数都被掩码，所以什么也不加载、不计算，m、ℓ、O 保持不变。",
    ),
    "flash.readout.torch": (
        "q, k, v come from the torch backend whatever the sidebar says: the exported ONNX graph does not output them.",
        "无论侧边栏选择了什么，q、k、v 都来自 torch 后端：导出的 ONNX 图并不输出它们。",
    ),
    # ---- IO accounting ----
    "flash.io.title": ("HBM traffic: Theorem 2", "HBM 读写量：定理 2"),
    "flash.io.caption": (
        "Elements moved between HBM and SRAM, for one head with d = {d}. Standard attention (Algorithm 0) writes "
        "S and P to HBM and reads them back: Θ(Nd + N²). FlashAttention reads K, V once and Q, O once per key block: "
        "Θ(N²d²/M). The FlashAttention counts come from running our instrumented tiled loop on random q, k, v; the "
        "dashed line is N²d²/M with the constant taken as 1 (the theorem gives the shape, not the constant).",
        "单个头、d = {d} 时在 HBM 与 SRAM 之间搬运的元素个数。标准注意力（算法 0）把 S 和 P 写入 HBM 再读回："
        "Θ(Nd + N²)。FlashAttention 读一遍 K、V，并且每个键块读写一遍 Q、O：Θ(N²d²/M)。FlashAttention 的数字来自"
        "在随机 q、k、v 上运行我们带计数的分块循环；虚线是常数取 1 时的 N²d²/M（定理给出的是形状，不是常数）。",
    ),
    "flash.io.n": ("Sequence length N", "序列长度 N"),
    "flash.io.m": ("On-chip memory M (elements)", "片上内存 M（元素个数）"),
    "flash.io.standard": ("standard (Algorithm 0)", "标准注意力（算法 0）"),
    "flash.io.flash": ("FlashAttention, counted", "FlashAttention（计数）"),
    "flash.io.theorem": ("N²d²/M", "N²d²/M"),
    "flash.io.accesses": ("HBM accesses (elements)", "HBM 访问量（元素）"),
    "flash.io.over_n": ("over N, at M = {M:,}", "随 N 变化，M = {M:,}"),
    "flash.io.over_m": ("over M, at N = {N:,}", "随 M 变化，N = {N:,}"),
    "flash.io.m_standard": ("Standard, N = {N:,}", "标准注意力，N = {N:,}"),
    "flash.io.m_flash": ("FlashAttention, M = {M:,}", "FlashAttention，M = {M:,}"),
    "flash.io.m_ratio": ("Standard / FlashAttention", "标准 / FlashAttention"),
    "flash.io.m_ratio.help": (
        "Blocks B_r = {br}, B_c = {bc}. FlashAttention moves less than standard attention once M is well above d² "
        "= {d2:,}: real GPUs have M around 100 KB per SM, and d is 64–128.",
        "块大小 B_r = {br}，B_c = {bc}。只有当 M 明显大于 d² = {d2:,} 时，FlashAttention 的搬运量才少于标准注意力；"
        "真实 GPU 每个 SM 的 M 约为 100 KB，而 d 通常为 64–128。",
    ),
    # ---- live kernels ----
    "flash.kern.title": ("Live kernels on this machine", "在本机上实时运行内核"),
    "flash.kern.caption": (
        "Eager attention (materialises the N × N matrix), our tiled loop in Python, and PyTorch's "
        "scaled_dot_product_attention (SDPA), causal, d = {d}, on {device}. The tiled loop is slow: FlashAttention's "
        "speed comes from running it as ONE fused GPU kernel that keeps the tiles in SRAM, not from a loop in "
        "Python. SDPA picks its own backend (shown in the legend).",
        "即时（eager）注意力（会生成完整的 N × N 矩阵）、我们用 Python 写的分块循环，以及 PyTorch 的 "
        "scaled_dot_product_attention（SDPA）；因果，d = {d}，运行于 {device}。分块循环很慢：FlashAttention 的速度来自"
        "把整个循环做成*一个*融合的 GPU 内核、让块留在 SRAM 中，而不是来自 Python 里的循环。SDPA 自己选择后端"
        "（见图例）。",
    ),
    "flash.kern.run": ("Measure the kernels", "测量这些内核"),
    "flash.kern.progress": ("Measuring N = {N:,} …", "正在测量 N = {N:,} …"),
    "flash.kern.none": (
        "Press the button to time the three kernels for N = {ns} (a few seconds).",
        "按下按钮，为 N = {ns} 计时这三个内核（需要几秒钟）。",
    ),
    "flash.kern.time": ("time (ms, median)", "时间（毫秒，中位数）"),
    "flash.kern.memory": ("peak memory (MB)", "峰值内存（MB）"),
    "flash.kern.n": ("N", "N"),
    "flash.kern.source": (
        "Measured on {device}. Peak memory: {source}, above what was allocated before the call.",
        "测量设备：{device}。峰值内存：{source}，只计调用期间新增的分配。",
    ),
    "flash.kern.eager": ("eager", "即时（eager）"),
    "flash.kern.tiled": ("tiled (ours, Python)", "分块（我们的 Python 版）"),
    "flash.kern.sdpa": ("SDPA", "SDPA"),
    # ---- FlashAttention-2 and -3 ----
    "flash.next.title": ("FlashAttention-2 and FlashAttention-3", "FlashAttention-2 与 FlashAttention-3"),
    "flash.next.v2": (
        "**FlashAttention-2** (Dao 2023, arXiv 2307.08691) cuts the non-matmul FLOPs (for example, O is divided "
        "by ℓ once at the end instead of at every step) and parallelises over the sequence length as well as over "
        "batch and heads, with the loops swapped so that Q blocks are the outer loop and each thread block owns one "
        "Q block. It also splits the work between the warps of a block so they need less communication through "
        "shared memory; together this gives about 2× the speed of FlashAttention, 50–73% of the A100's peak.",
        "**FlashAttention-2**（Dao 2023，arXiv 2307.08691）减少了非矩阵乘法的运算（例如 O 只在最后除以一次 ℓ，"
        "而不是每一步都除），并且除了批次和头之外还沿序列长度并行：两层循环交换，Q 块成为外层循环，每个线程块负责一个 "
        "Q 块。它还重新划分了一个线程块内各 warp 的工作，减少它们通过共享内存的通信；合起来速度约为 FlashAttention 的 "
        "2 倍，达到 A100 峰值的 50–73%。",
    ),
    "flash.next.v3": (
        "**FlashAttention-3** (Shah et al. 2024, arXiv 2407.08608) targets Hopper GPUs (H100): warp "
        "specialisation lets producer warps move data with the asynchronous TMA while consumer warps run the "
        "Tensor Cores, and the softmax of one block is overlapped with the matmuls of another. In FP8 it uses block "
        "quantisation and incoherent processing (a random orthogonal transform that spreads outliers) to keep the "
        "error low; in FP16 it is 1.5–2.0× faster than FlashAttention-2, reaching about 75% of the H100's peak.",
        "**FlashAttention-3**（Shah 等 2024，arXiv 2407.08608）面向 Hopper GPU（H100）：warp 专门化让生产者 warp "
        "用异步的 TMA 搬运数据，同时消费者 warp 使用 Tensor Core 计算，并让一块的 softmax 与另一块的矩阵乘法重叠执行。"
        "在 FP8 下，它用分块量化和非相干处理（一个把离群值分散开的随机正交变换）来压低误差；在 FP16 下它比 "
        "FlashAttention-2 快 1.5–2.0 倍，达到 H100 峰值的约 75%。",
    ),
    # ---- in the paper vs here ----
    "flash.pvh.bert": ("BERT-large training", "BERT-large 训练"),
    "flash.pvh.bert.paper": (
        "15 % faster than the MLPerf 1.1 training speed record (seq. 512, 8 × A100)",
        "比 MLPerf 1.1 的训练速度纪录快 15 %（序列长 512，8 块 A100）",
    ),
    "flash.pvh.gpt2": ("GPT-2 training", "GPT-2 训练"),
    "flash.pvh.gpt2.paper": (
        "up to 3× faster than the HuggingFace implementation (seq. 1K)",
        "比 HuggingFace 实现最多快 3 倍（序列长 1K）",
    ),
    "flash.pvh.lra": ("Long-Range Arena", "Long-Range Arena"),
    "flash.pvh.lra.paper": (
        "2.4× faster than standard attention (seq. 1K–4K)",
        "比标准注意力快 2.4 倍（序列长 1K–4K）",
    ),
    "flash.pvh.long": ("longer context", "更长的上下文"),
    "flash.pvh.long.paper": (
        "first Transformer better than chance on Path-X (seq. 16K, 61.4 %); block-sparse FlashAttention on "
        "Path-256 (seq. 64K, 63.1 %)",
        "第一个在 Path-X 上好于随机猜测的 Transformer（序列长 16K，61.4 %）；块稀疏 FlashAttention 在 Path-256 上"
        "（序列长 64K，63.1 %）",
    ),
    "flash.pvh.kernel": ("the kernel", "内核"),
    "flash.pvh.kernel.paper": (
        "one fused CUDA kernel, tiles held in SRAM, recomputation in the backward pass",
        "一个融合的 CUDA 内核，分块留在 SRAM 中，反向传播时重新计算",
    ),
    "flash.pvh.here.kernel": (
        "Algorithm 1 as a Python loop on one head of our GPT: the same output as standard attention, no speed-up; its "
        "HBM accesses counted (section 2); PyTorch's SDPA timed live (section 3)",
        "算法 1 写成 Python 循环，跑在我们 GPT 的一个头上：输出与标准注意力相同，但不更快；在这个循环上计数 HBM "
        "访问（第 2 节）；PyTorch SDPA 的实时计时（第 3 节）",
    ),
    "flash.pvh.here.none": ("not trained here", "本站未训练"),
    "flash.pvh.dep.speed": (
        "The speed-ups above are the paper's, measured with its CUDA kernel; nothing on this page trains a model "
        "with FlashAttention or re-measures them.",
        "上面的加速都是论文用其 CUDA 内核测得的；本页没有用 FlashAttention 训练模型，也没有重新测量这些结果。",
    ),
    # ---- explanation ----
    "flash.explain": (
        "**What the paper changed.** Attention on a GPU was limited by memory traffic, not arithmetic: the N × N "
        "scores and probabilities went to HBM and back. FlashAttention (Dao et al. 2022, arXiv 2205.14135) is "
        "*IO-aware exact* attention: tiling computes it block by block in SRAM; the online softmax (running max m and "
        "sum ℓ) makes the blocks add up to the exact softmax; and the backward pass recomputes S and P from Q, K, V "
        "and the saved m, ℓ instead of storing them — more FLOPs, fewer HBM accesses, and memory linear in N. "
        "Theorem 2 counts Θ(N²d²/M) HBM accesses against Θ(Nd + N²).  \n"
        "**What you see.** The tiled loop on one real head of our GPT: which tile is in SRAM, how m and ℓ grow, how "
        "O_i is rescaled, and that the final O equals standard attention up to float32 rounding. Then the HBM counts "
        "of that same loop, and live timings.  \n"
        "**Try:** a small M (many small tiles) against a large one; causal off (no tiles skipped); the last "
        "step's difference; M = d² in the IO chart, where tiling moves *more* than standard attention.  \n"
        "Papers: Dao, Fu, Ermon, Rudra, Ré, *FlashAttention: Fast and Memory-Efficient Exact Attention with "
        "IO-Awareness*, arXiv 2205.14135; FlashAttention-2, arXiv 2307.08691; FlashAttention-3, arXiv 2407.08608.",
        "**论文改变了什么。** 在 GPU 上，注意力受限于内存读写而不是算力：N × N 的分数和概率要写入 HBM 再读回。"
        "FlashAttention（Dao 等 2022，arXiv 2205.14135）是*感知 IO 的精确*注意力：分块（tiling）让计算在 SRAM 中一块"
        "一块地进行；在线 softmax（累计最大值 m 与累计和 ℓ）让各块的结果合起来恰好等于精确的 softmax；反向传播时"
        "不存 S 和 P，而是由 Q、K、V 和保存的 m、ℓ 重新计算——运算更多，HBM 访问更少，内存随 N 线性增长。"
        "定理 2 给出的 HBM 访问量是 Θ(N²d²/M)，而标准注意力是 Θ(Nd + N²)。  \n"
        "**你看到的是什么。** 在我们 GPT 的一个真实注意力头上运行分块循环：哪一块在 SRAM 中，m 和 ℓ 如何增长，O_i "
        "如何被重新缩放，以及最终的 O 与标准注意力只差 float32 舍入误差。然后是同一循环的 HBM 计数和实时计时。  \n"
        "**试一试：** 比较很小的 M（许多小块）和很大的 M；关掉因果掩码（没有块被跳过）；看最后一步的差值；在 IO 图中"
        "把 M 设为 d²，此时分块反而比标准注意力搬运得*更多*。  \n"
        "论文：Dao、Fu、Ermon、Rudra、Ré，*FlashAttention: Fast and Memory-Efficient Exact Attention with "
        "IO-Awareness*，arXiv 2205.14135；FlashAttention-2，arXiv 2307.08691；FlashAttention-3，arXiv 2407.08608。",
    ),
    # ---- errors ----
    "flash.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "flash.error.too_long": (
        "The text has {n} characters; this page takes at most {max}.",
        "文本有 {n} 个字符；本页最多接受 {max} 个。",
    ),
    "flash.error.tokens": (
        "The text makes {n} tokens; this page steps through at most {max}.",
        "这段文本有 {n} 个词元；本页最多逐步演示 {max} 个。",
    ),
    "flash.error.blocks": (
        "Block sizes must be among {choices}; got B_r = {br}, B_c = {bc}.",
        "块大小必须取 {choices} 之一；收到的是 B_r = {br}，B_c = {bc}。",
    ),
    "flash.error.memory": (
        "M = {M:,} elements is too small: with d = {d}, Algorithm 1 needs M ≥ {min:,} here (blocks of at least {b} "
        "rows); at most {max:,}.",
        "M = {M:,} 个元素太小：d = {d} 时，这里的算法 1 需要 M ≥ {min:,}（每块至少 {b} 行）；最多 {max:,}。",
    ),
    "flash.error.choice": ("Pick a layer and a head of the model.", "请选择模型的一个层和一个头。"),
    "flash.error.io": ("N and M must be among the listed values.", "N 和 M 必须取列出的值之一。"),
}
