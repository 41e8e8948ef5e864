"""English and 简体中文 text of the Scaling page."""

STRINGS = {
    "scaling.intro": (
        "How fast does a language model's loss fall as it grows (N parameters) and reads more (D tokens)? Kaplan et "
        "al. (2001.08361) found smooth power laws in N, D and compute C, some holding over more than seven orders of "
        "magnitude, and that larger models learn more from each token. Hoffmann et al. (2203.15556, Chinchilla) "
        "found that for a fixed compute C ≈ 6·N·D, N and D should grow in equal proportion. Below, both laws are "
        "fitted on {runs} small GPTs trained here; then the two ways of spreading one model's training over many "
        "devices, Megatron-LM's tensor parallelism (1909.08053) and ZeRO's sharding (1910.02054), each checked by a "
        "real run over gloo on this machine.",
        "语言模型变大（参数量 N）、读得更多（词元数 D）时，损失下降得有多快？Kaplan 等（2001.08361）发现损失是 N、D "
        "和计算量 C 的平滑幂律，部分趋势跨越七个以上数量级，而且更大的模型从每个词元中学到更多。Hoffmann 等"
        "（2203.15556，Chinchilla）发现，在固定计算量 C ≈ 6·N·D 下，N 和 D 应按相同比例增长。下面先在本站训练的"
        "{runs}小型 GPT 上拟合这两条定律；然后看把一个模型的训练分摊到多台设备上的两种方法：Megatron-LM 的张量"
        "并行（1909.08053）和 ZeRO 的分片（1910.02054），两者都在本机上用 gloo 真实运行过。",
    ),
    "scaling.try.do": (
        "Section 3 opens at a compute budget of 10¹³ FLOPs, about our largest run. Drag it to 10²⁴ FLOPs.",
        "第 3 节的计算预算起始于 10¹³ FLOPs，约为我们最大的一次训练。把它拖到 10²⁴ FLOPs。",
    ),
    "scaling.try.see": (
        "At 10¹³ the budget lies inside our sweep and our fit stands on its own runs; further right a warning says our "
        "line is an extrapolation, at 10²⁴ across more than ten orders of magnitude. The published laws grow at "
        "different rates, Kaplan's N_opt as $C^{{0.73}}$ and Chinchilla's as $C^{{{a:.2f}}}$: at 10²⁴ Kaplan's law "
        "asks for a model {ratio:.0f}× larger than Chinchilla's, trained on {kaplan:.2f} tokens per parameter against "
        "{chin:.0f}.",
        "在 10¹³ 时预算处于我们的扫描范围内，我们的拟合有自己的训练作依据；再往右会出现警告：我们的线是外推，到 10²⁴ "
        "时跨越十个以上数量级。公布的两条定律增长速度不同，Kaplan 的 N_opt ∝ $C^{{0.73}}$，Chinchilla 的 ∝ "
        "$C^{{{a:.2f}}}$：在 10²⁴ 时 Kaplan 定律要求的模型比 Chinchilla 的大 {ratio:.0f} 倍，每个参数只训练 "
        "{kaplan:.2f} 个词元，而后者是 {chin:.0f} 个。",
    ),
    "scaling.try.why": (
        "Hoffmann et al. point to the learning-rate schedule as one cause: Kaplan et al. trained every model with the "
        "same number of tokens and schedule, so shorter runs were not judged at the loss they could reach; "
        "Chinchilla's cosine schedule ends where each run ends, as our sweep's does.",
        "Hoffmann 等指出学习率调度是原因之一：Kaplan 等对所有模型使用相同的训练词元数和调度，较短的训练没有在它"
        "能达到的损失处被评估；Chinchilla 的余弦调度在每次训练结束时恰好走完，我们的扫描也是如此。",
    ),
    "scaling.intro.runs": ("{n}", " {n} 个"),  # the sweep's runs, as many as were recorded
    "scaling.intro.no_runs": ("a sweep of", "一组"),  # before the sweep has recorded a run
    "scaling.count_scales": ("1e12 T|1e9 B|1e6 M|1e3 k", "1e12 万亿|1e8 亿|1e4 万"),
    "scaling.error.no_sweep": (
        "No scaling sweep recorded yet. Run `{command}` (resumable: it writes runs.json run by run, then card.json "
        "with the fits).",
        "尚未记录缩放扫描。请运行 `{command}`（可断点续跑：每完成一次训练写入 runs.json，最后把拟合写入 card.json）。",
    ),
    "scaling.error.no_card": (
        "The sweep has not finished: the fits appear when `{command}` writes card.json.",
        "扫描尚未完成：`{command}` 写出 card.json 后才会显示拟合。",
    ),
    "scaling.error.no_parallel": (
        "Not recorded yet: run `{command}` (it splits a layer of the shipped gpt over gloo processes and writes "
        "parallel.json).",
        "尚未记录：请运行 `{command}`（它把随附 gpt 的一层拆到多个 gloo 进程上运行，并写出 parallel.json）。",
    ),
    "scaling.error.choice": ("Unknown choice.", "未知的选项。"),
    "scaling.error.degree": (
        "t = {t} does not divide the {heads} heads and the MLP width {mlp}.",
        "t = {t} 不能同时整除 {heads} 个头和 MLP 宽度 {mlp}。",
    ),
    "scaling.yes": ("yes", "是"),
    "scaling.no": ("no", "否"),
    # 1 · our runs
    "scaling.runs.title": ("1 · Our runs, log-log", "1 · 我们的训练，双对数坐标"),
    "scaling.runs.caption": (
        "Each dot is one GPT trained from scratch on the Shakespeare training plays: {sizes} sizes from {n_min} to "
        "{n_max} non-embedding parameters N (a ×{span:.0f} span), each for {budgets} token budgets D from {d_min} to "
        "{d_max}. The loss is measured on held-out plays. Lines: the chosen fit, one per budget (left) and one per "
        "size (right); dashed: its limit when the other variable is unlimited.",
        "每个点是一个在莎士比亚训练剧本上从零训练的 GPT：{sizes} 种规模，非嵌入参数量 N 从 {n_min} 到 {n_max}"
        "（跨度 ×{span:.0f}），每种规模训练 {budgets} 种词元预算 D，从 {d_min} 到 {d_max}。损失在留出的剧本上测量。"
        "实线：所选拟合，左图每个预算一条，右图每个规模一条；虚线：另一变量无限大时的极限。",
    ),
    "scaling.runs.partial": (
        "{done} of {planned} runs recorded so far; the fits appear when the sweep finishes and writes card.json "
        "(`{command}` resumes it).",
        "目前已记录 {planned} 次训练中的 {done} 次；扫描完成并写出 card.json 后会显示拟合（`{command}` 可续跑）。",
    ),
    "scaling.fit": ("Fit drawn", "显示的拟合"),
    "scaling.fit.chinchilla": ("Chinchilla, Approach 3: E + A/N^α + B/D^β", "Chinchilla 方法 3：E + A/N^α + B/D^β"),
    "scaling.fit.kaplan": (
        "Kaplan, Eq. 1.5: [(N_c/N)^(α_N/α_D) + D_c/D]^α_D",
        "Kaplan 式 1.5：[(N_c/N)^(α_N/α_D) + D_c/D]^α_D",
    ),
    "scaling.runs.vs_n": ("Loss against N, one colour per token budget D", "损失随 N 的变化，每种颜色一个词元预算 D"),
    "scaling.runs.vs_d": ("Loss against D, one colour per size N", "损失随 D 的变化，每种颜色一个规模 N"),
    "scaling.limit_n.chinchilla": ("D = ∞: E + A/N^α", "D = ∞：E + A/N^α"),
    "scaling.limit_n.kaplan": ("D = ∞: L(N) = (N_c/N)^α_N, at convergence", "D = ∞：收敛时的 L(N) = (N_c/N)^α_N"),
    "scaling.limit_d.chinchilla": ("N = ∞: E + B/D^β", "N = ∞：E + B/D^β"),
    "scaling.limit_d.kaplan": ("N = ∞: L(D) = (D_c/D)^α_D", "N = ∞：L(D) = (D_c/D)^α_D"),
    "scaling.n_axis": ("non-embedding parameters N", "非嵌入参数量 N"),
    "scaling.d_axis": ("training tokens D", "训练词元数 D"),
    "scaling.loss_axis": ("held-out loss (nats/token)", "留出集损失（奈特/词元）"),
    "scaling.c_axis": ("training compute C (FLOPs)", "训练计算量 C（FLOPs）"),
    "scaling.nopt_axis": ("compute-optimal parameters N_opt", "计算最优参数量 N_opt"),
    "scaling.m.alpha": ("α (exponent of N)", "α（N 的指数）"),
    "scaling.m.alpha.help": (
        "L̂ = E + A/N^α + B/D^β fitted on our runs (Huber loss on ln L, as Chinchilla's Approach 3). Chinchilla's "
        "published α is 0.34.",
        "在我们的训练上拟合 L̂ = E + A/N^α + B/D^β（与 Chinchilla 方法 3 相同，对 ln L 用 Huber 损失）。"
        "Chinchilla 公布的 α 为 0.34。",
    ),
    "scaling.m.beta": ("β (exponent of D)", "β（D 的指数）"),
    "scaling.m.beta.help": ("Chinchilla's published β is 0.28.", "Chinchilla 公布的 β 为 0.28。"),
    "scaling.m.E": ("E (irreducible loss)", "E（不可约损失）"),
    "scaling.m.E.help": (
        "The loss the fit approaches with N and D both unlimited, in nats per token. Chinchilla's is 1.69 on its "
        "own data and tokenizer: not comparable with ours.",
        "N 和 D 都无限大时拟合趋近的损失，单位为奈特/词元。Chinchilla 的是 1.69，但那是它自己的数据和分词器，"
        "不能与我们的比较。",
    ),
    "scaling.m.residual": ("fit residual", "拟合残差"),
    "scaling.m.residual.help": (
        "Root mean square of ln L̂ − ln L over the runs: 0.01 means the fit misses a typical run by about 1 %.",
        "各次训练上 ln L̂ − ln L 的均方根：0.01 表示拟合与一次典型训练相差约 1%。",
    ),
    "scaling.m.alpha_n": ("α_N (exponent of N)", "α_N（N 的指数）"),
    "scaling.m.alpha_n.help": (
        "Kaplan's Eq. 1.5 fitted on our runs (least squares on ln L). Kaplan et al. found α_N ≈ 0.076.",
        "在我们的训练上拟合 Kaplan 式 1.5（对 ln L 做最小二乘）。Kaplan 等得到 α_N ≈ 0.076。",
    ),
    "scaling.m.alpha_d": ("α_D (exponent of D)", "α_D（D 的指数）"),
    "scaling.m.alpha_d.help": ("Kaplan et al. found α_D ≈ 0.095.", "Kaplan 等得到 α_D ≈ 0.095。"),
    "scaling.m.n_c": ("N_c", "N_c"),
    "scaling.m.n_c.help": (
        "The scale of L(N) = (N_c/N)^α_N. Kaplan et al.'s is 8.8·10¹³ for their data and tokenizer.",
        "L(N) = (N_c/N)^α_N 中的尺度常数。Kaplan 等在他们的数据和分词器上得到 8.8·10¹³。",
    ),
    "scaling.ci": ("95 %: {lo:.3f} – {hi:.3f}", "95%：{lo:.3f} – {hi:.3f}"),
    "scaling.ci.caption": (
        "95 % intervals: the 2.5th and 97.5th percentiles of {reps} refits on runs resampled with replacement. A wide "
        "interval means our runs do not pin that number down.",
        "95% 区间：在有放回重采样的训练上重新拟合 {reps} 次，取第 2.5 和第 97.5 百分位。区间很宽，说明我们的训练"
        "不足以确定这个数。",
    ),
    "scaling.read": (
        "**How to read an exponent.** In L̂ = E + A/N^α + B/D^β only A/N^α and B/D^β can shrink; E is the floor. "
        "Doubling N multiplies A/N^α by 2^−α: with our α = {alpha:.2f}, by {fa:.2f}; doubling D multiplies B/D^β "
        "by 2^−β = {fb:.2f}. Chinchilla's α = 0.34 gives 0.79 per doubling. Kaplan's law has no floor: at "
        "convergence, doubling N multiplies the whole loss by 2^−α_N (their 0.076: 0.95, about 5 % less per "
        "doubling; ours, α_N = {alpha_n:.2f}: {fn:.2f}).",
        "**如何读指数。** 在 L̂ = E + A/N^α + B/D^β 中只有 A/N^α 和 B/D^β 会变小，E 是下限。N 翻倍会让 A/N^α 乘以 "
        "2^−α：我们的 α = {alpha:.2f}，即乘以 {fa:.2f}；D 翻倍让 B/D^β 乘以 2^−β = {fb:.2f}。Chinchilla 的 α = 0.34 "
        "对应每翻倍乘以 0.79。Kaplan 定律没有下限：收敛时 N 翻倍让整个损失乘以 2^−α_N（他们的 0.076 对应 0.95，"
        "每翻倍约降 5%；我们的 α_N = {alpha_n:.2f} 对应 {fn:.2f}）。",
    ),
    "scaling.limits.title": ("The limits of fitting on a tiny corpus", "在极小语料上拟合的局限"),
    "scaling.limits.body": (
        "These exponents are ours, not the papers', and should not be compared with theirs number for number:\n"
        "- the training plays hold {tokens} tokens, so a {d_max}-token budget is more than one pass over them;\n"
        "- the models have 2 and 4 layers, and each run is one seed of {steps_min} to {steps_max} steps, so the noise "
        "of one run is not averaged out;\n"
        "- Chinchilla's smallest model (70M parameters) is about 90 times our largest and its runs read 5B to 500B "
        "tokens; at our sizes a model is far from converged, so the fitted E is not the entropy of English, only "
        "where these curves level off;\n"
        "- the bootstrap intervals count the scatter between runs, not what a different corpus, tokenizer or "
        "learning rate would change.\n\n"
        "What carries over is the method: the functional forms, the Huber fit, the IsoFLOP parabolas, and reading "
        "the exponents as how much each doubling buys.",
        "这些指数是我们的，不是论文的，不能与论文的数字逐一比较：\n"
        "- 训练剧本共 {tokens} 个词元，所以 {d_max} 词元的预算超过了完整读一遍；\n"
        "- 模型只有 2 层和 4 层，每次训练只用一个随机种子、{steps_min} 到 {steps_max} 步，单次训练的噪声"
        "没有被平均掉；\n"
        "- Chinchilla 最小的模型（7000 万参数）约为我们最大模型的 90 倍，其训练读了 50 亿到 5000 亿个词元；在我们的"
        "规模上模型远未收敛，所以拟合出的 E 不是英语的熵，只是这些曲线趋平的位置；\n"
        "- 自助法区间只反映训练之间的离散，不反映换语料、分词器或学习率会带来的变化。\n\n"
        "能迁移的是方法：函数形式、Huber 拟合、IsoFLOP 抛物线，以及把指数读作每翻倍一次能换来多少。",
    ),
    "scaling.pvh.sizes": ("model sizes N", "模型规模 N"),
    "scaling.pvh.sizes.paper": (
        "Kaplan: 768 to 1.5B non-embedding; Chinchilla: 70M to over 16B",
        "Kaplan：768 到 15 亿非嵌入参数；Chinchilla：7000 万到 160 亿以上",
    ),
    "scaling.pvh.tokens": ("tokens D", "词元数 D"),
    "scaling.pvh.tokens.paper": ("Chinchilla: 5B to 500B", "Chinchilla：50 亿到 5000 亿"),
    "scaling.pvh.data": ("data", "数据"),
    "scaling.pvh.data.paper": (
        "WebText2 (Kaplan), MassiveText (Chinchilla)",
        "WebText2（Kaplan）、MassiveText（Chinchilla）",
    ),
    "scaling.pvh.data.here": (
        "Shakespeare, 1.64M training tokens, held-out plays",
        "莎士比亚，164 万训练词元，留出剧本",
    ),
    "scaling.pvh.kaplan": ("Kaplan's exponents", "Kaplan 的指数"),
    "scaling.pvh.chinchilla": ("Chinchilla, Approach 3", "Chinchilla 方法 3"),
    "scaling.pvh.schedule": ("learning-rate schedule", "学习率调度"),
    "scaling.pvh.schedule.paper": (
        "Kaplan: the same for every model; Chinchilla: cosine matched to each run's length",
        "Kaplan：所有模型相同；Chinchilla：余弦调度，长度与每次训练匹配",
    ),
    "scaling.pvh.schedule.here": (
        "warm-up, then cosine to a tenth of the peak, matched to each run's length; peak ∝ 1/width",
        "预热后余弦衰减到峰值的十分之一，长度与每次训练匹配；峰值 ∝ 1/宽度",
    ),
    "scaling.pvh.dep.n": (
        "Both laws are fitted here on non-embedding parameters (Kaplan's choice). At our sizes the 2,048-token "
        "embedding would be a large share of N.",
        "这里两条定律都用非嵌入参数量拟合（Kaplan 的做法）。在我们的规模上，2,048 词元的嵌入会占 N 的很大一部分。",
    ),
    "scaling.pvh.dep.seed": (
        "One seed per run, so run-to-run noise stays in the data the fit sees.",
        "每次训练只有一个随机种子，训练之间的噪声留在拟合所用的数据里。",
    ),
    # 2 · IsoFLOP
    "scaling.train.title": (
        "How the runs got there: training curves over compute (Chinchilla, Approach 1)",
        "训练是怎样走到那里的：随计算量变化的训练曲线（Chinchilla 方法 1）",
    ),
    "scaling.train.caption": (
        "Each thin line is one of the {runs} runs above while it trained: its training loss (the mean over the steps "
        "around each point) against the compute it had spent so far, C = 6·N·(tokens seen), coloured by model size. "
        "Hoffmann et al. (arXiv 2203.15556, §3.1, Figure 2 left) trained each size for four schedule lengths and "
        "took, at each FLOP count, the lowest loss any run had reached: that envelope (thick line) tells the best "
        "model size for each compute. Here each size ran for five token budgets, each with a cosine schedule matched "
        "to its own length. Move the compute to see which run holds the envelope there.",
        "每条细线是上面 {runs} 次训练之一的训练过程：它的训练损失（每个点附近若干步的平均）随它已花费的计算量 "
        "C = 6·N·（已见词元数）而变化，颜色表示模型规模。Hoffmann 等人（arXiv 2203.15556，§3.1，图 2 左）把每种规模"
        "按四种调度长度各训练一次，在每个计算量上取所有训练达到的最低损失：这条包络线（粗线）给出每个计算量下最好的"
        "模型规模。这里每种规模按五种词元预算各训练一次，每次的余弦调度都与它自己的长度匹配。拖动计算量，看那里是哪次"
        "训练处在包络线上。",
    ),
    "scaling.train.at": ("Compute spent, C", "已花费的计算量 C"),
    "scaling.train.envelope": ("envelope: the lowest loss at C", "包络线：C 处的最低损失"),
    "scaling.train.c_axis": ("compute spent, C = 6·N·tokens seen (FLOPs)", "已花费计算量 C = 6·N·已见词元（FLOPs）"),
    "scaling.train.loss_axis": ("training loss (nats per token)", "训练损失（nats/词元）"),
    "scaling.train.readout": (
        "At **C = {c}** FLOPs the lowest training loss, **{loss:.3f}** nats, is the run with **N = {n}** trained for "
        "**D = {d}** tokens, **{spent:.0f} %** of the way through its schedule.",
        "在 **C = {c}** FLOPs 处，最低的训练损失 **{loss:.3f}** nats 属于 **N = {n}**、训练 **D = {d}** 个词元的那次"
        "训练，此时它走完了自己调度的 **{spent:.0f} %**。",
    ),
    "scaling.train.pvh": (
        "Paper vs here: the paper reads its envelope as a compute-optimal size that grows with compute; here the "
        "envelope passes from N = {first} at the smallest compute to N = {last} at the largest. In the upper half of "
        "the compute range (log scale), {ended} of the envelope's {late} points belong to a run at least halfway "
        "through its schedule: a run whose learning rate has not decayed yet lies above the envelope, which is why "
        "each budget gets a schedule of its own length (the paper finds a cosine cycle much longer than the run "
        "leaves the model under-trained). Training loss is measured on training batches, so the envelope is noisy.",
        "论文与这里：论文把包络线读作随计算量增长的最优模型规模；这里包络线从最小计算量处的 N = {first} 移到最大"
        "计算量处的 N = {last}。在计算量范围的上半段（对数尺度），包络线的 {late} 个点中有 {ended} 个属于已走完自己"
        "调度至少一半的训练：学习率还没衰减下来的训练位于包络线之上，所以每个预算都要用与自己长度匹配的调度（论文发现"
        "余弦周期远长于训练步数时模型训练不足）。训练损失是在训练批次上测的，所以包络线有噪声。",
    ),
    "scaling.iso.title": ("2 · IsoFLOP profiles (Chinchilla, Approach 2)", "2 · 等计算量剖面（Chinchilla 方法 2）"),
    "scaling.iso.caption": (
        "Sizes and budgets both roughly double in our grid, so runs of about the same compute C = 6·N·D lie on its "
        "diagonals. At fixed C a small model reads many tokens and a large one few; loss against ln N dips in "
        "between, and the minimum of a parabola fitted through the runs is the compute-optimal N for that C. A "
        "star is filled when the minimum lies between the profile's sizes, hollow when the parabola puts it "
        "outside them (an extrapolation, not a measurement); a cross marks the lowest run where the parabola opens "
        "downward and has no minimum at all.",
        "在我们的网格里规模和预算都大致翻倍，所以计算量 C = 6·N·D 相近的训练落在对角线上。固定 C 时，小模型读很多"
        "词元，大模型读很少；损失随 ln N 的曲线在中间下凹，穿过这些训练拟合的抛物线的最低点就是该 C 下的计算最优 "
        "N。最低点落在该剖面的规模之间时星号为实心；抛物线把它放在规模范围之外时为空心（那是外推，不是测量）；"
        "抛物线开口向下、根本没有最低点时，用叉号标出损失最低的训练。",
    ),
    "scaling.iso.empty": (
        "No compute budget holds three sizes of the sweep: no IsoFLOP profile to fit.",
        "扫描中没有哪个计算量包含三种规模：无法拟合等计算量剖面。",
    ),
    "scaling.iso.inside": ("minimum within the runs", "最低点在训练范围内"),
    "scaling.iso.outside": ("minimum outside the runs", "最低点在训练范围外"),
    "scaling.iso.none": ("parabola opens downward: lowest run", "抛物线开口向下：损失最低的训练"),
    "scaling.iso.kind.inside": ("yes", "是"),
    "scaling.iso.kind.outside": ("no: extrapolated", "否：外推"),
    "scaling.iso.kind.none": ("no minimum: opens downward", "无最低点：开口向下"),
    "scaling.iso.compare": (
        "Approach 3 on our runs gives $N_\\text{{opt}} \\propto C^{{{a:.2f}}}$ ($a = \\beta/(\\alpha+\\beta)$); "
        "Chinchilla's published constants give "
        r"$C^{{{a_pub:.2f}}}$, Kaplan's law $C^{{0.73}}$.",
        "在我们的训练上用方法 3 得到 $N_\\text{{opt}} \\propto C^{{{a:.2f}}}$（$a = \\beta/(\\alpha+\\beta)$）；"
        "Chinchilla 公布的常数给出 $C^{{{a_pub:.2f}}}$，"
        "Kaplan 定律为 $C^{{0.73}}$。",
    ),
    "scaling.m.profiles": ("IsoFLOP profiles", "等计算量剖面"),
    "scaling.m.profiles.help": (
        "Groups of runs whose ln C agree within 0.35, with at least three sizes.",
        "ln C 相差不超过 0.35、且至少含三种规模的一组训练。",
    ),
    "scaling.m.interior": ("minima within the runs", "落在训练范围内的最低点"),
    "scaling.m.interior.help": (
        "Profiles whose parabola has its minimum between the smallest and largest size it was fitted on.",
        "抛物线最低点位于拟合所用最小与最大规模之间的剖面数。",
    ),
    "scaling.m.iso_a": ("a from the minima", "由最低点得到的 a"),
    "scaling.m.iso_a.help": (
        "N_opt ∝ C^a fitted through the minima that lie within their runs.",
        "用落在训练范围内的最低点拟合 N_opt ∝ C^a。",
    ),
    "scaling.m.iso_a.none": (
        "Needs at least two minima within their runs.",
        "至少需要两个落在训练范围内的最低点。",
    ),
    "scaling.col.flops": ("compute C (FLOPs)", "计算量 C（FLOPs）"),
    "scaling.col.sizes": ("sizes N", "规模 N"),
    "scaling.col.n_opt": ("parabola's N_opt", "抛物线的 N_opt"),
    "scaling.col.interior": ("within the runs", "在训练范围内"),
    # 3 · a budget
    "scaling.budget.title": ("3 · A compute budget: how big, how long?", "3 · 给定计算预算：多大的模型，训练多久？"),
    "scaling.budget.caption": (
        "Each law returns the N and D that minimise loss at C = 6·N·D. Kaplan: N ≈ 1.3·10⁹ · (C / PF-day)^0.73 "
        "(their Fig. 14; 1 PF-day = 8.64·10¹⁹ FLOPs) and D = C/(6N). Chinchilla: minimising E + A/N^α + B/D^β "
        "under C = 6·N·D gives N_opt = G·(C/6)^a and D_opt = (C/6)^b / G, with a = β/(α+β), b = α/(α+β) and "
        "G = (αA/(βB))^(1/(α+β)), computed with the published constants (E = 1.69, A = 406.4, B = 410.7, α = 0.34, "
        "β = 0.28) and with ours.",
        "每条定律都给出在 C = 6·N·D 下使损失最小的 N 和 D。Kaplan：N ≈ 1.3·10⁹ · (C / PF-day)^0.73（他们的图 14；"
        "1 PF-day = 8.64·10¹⁹ FLOPs），D = C/(6N)。Chinchilla：在 C = 6·N·D 约束下最小化 E + A/N^α + B/D^β，"
        "得到 N_opt = G·(C/6)^a、D_opt = (C/6)^b / G，其中 a = β/(α+β)、b = α/(α+β)、G = (αA/(βB))^(1/(α+β))；"
        "分别用公布的常数（E = 1.69、A = 406.4、B = 410.7、α = 0.34、β = 0.28）和我们的常数计算。",
    ),
    "scaling.budget": ("Compute budget C", "计算预算 C"),
    "scaling.law.ours": ("our fit (Approach 3)", "我们的拟合（方法 3）"),
    "scaling.law.kaplan": ("Kaplan et al. (Fig. 14)", "Kaplan 等（图 14）"),
    "scaling.law.chinchilla": ("Chinchilla (published fit)", "Chinchilla（公布的拟合）"),
    "scaling.m.n_opt.ours": ("N_opt · our fit", "N_opt · 我们的拟合"),
    "scaling.m.n_opt.ours.help": (
        "From E, A, B, α, β fitted on our sweep: far outside its compute range this only says where the line goes.",
        "由我们扫描拟合的 E、A、B、α、β 算出：远离扫描的计算量范围时，它只说明这条线延伸到哪里。",
    ),
    "scaling.m.n_opt.kaplan": ("N_opt · Kaplan", "N_opt · Kaplan"),
    "scaling.m.n_opt.kaplan.help": (
        "N ≈ 1.3·10⁹ · (C / PF-day)^0.73, non-embedding parameters.",
        "N ≈ 1.3·10⁹ · (C / PF-day)^0.73，非嵌入参数。",
    ),
    "scaling.m.n_opt.chinchilla": ("N_opt · Chinchilla", "N_opt · Chinchilla"),
    "scaling.m.n_opt.chinchilla.help": (
        "G·(C/6)^a with Chinchilla's published Approach-3 constants.",
        "用 Chinchilla 公布的方法 3 常数计算 G·(C/6)^a。",
    ),
    "scaling.budget.no_ours": (
        "Our fit appears here when the sweep has finished (`{command}`).",
        "扫描完成后（`{command}`）这里会显示我们的拟合。",
    ),
    "scaling.budget.beyond": (
        "Our fit was measured on {n_min} – {n_max} non-embedding parameters and at most {d_max} tokens: compute from "
        "{lo} to {hi} FLOPs (shaded). This budget lies {orders:.1f} orders of magnitude outside that range, so our "
        "line there is an extrapolation, not a prediction. The published laws are extrapolations too far below "
        "the budgets their papers measured.",
        "我们的拟合只在 {n_min} – {n_max} 个非嵌入参数、最多 {d_max} 个词元上测量过：计算量从 {lo} 到 {hi} FLOPs"
        "（阴影部分）。这个预算距离该范围 {orders:.1f} 个数量级，所以我们的线在这里是外推，不是预测。公布的定律在"
        "远低于其论文所测预算的地方同样是外推。",
    ),
    "scaling.budget.inside": (
        "Within the sweep's compute range ({lo} to {hi} FLOPs, shaded).",
        "处于扫描的计算量范围内（{lo} 到 {hi} FLOPs，阴影部分）。",
    ),
    "scaling.col.law": ("law", "定律"),
    "scaling.col.n": ("parameters N", "参数量 N"),
    "scaling.col.d": ("tokens D", "词元数 D"),
    "scaling.col.ratio": ("tokens per parameter D/N", "每参数词元数 D/N"),
    "scaling.budget.sweep_range": ("our sweep's compute", "我们扫描的计算量"),
    "scaling.budget.trained": (
        "Marked at C = 6·N·D: GPT-3 175B on 300B tokens (2005.14165; {gpt3:.1f} tokens per parameter), Gopher 280B "
        "on 300B tokens (2112.11446), and Chinchilla, 70B on 1.4T tokens ({chin:.0f} tokens per parameter) for "
        "Gopher's compute budget, which outperformed Gopher and GPT-3 on a wide range of evaluations (2203.15556). "
        "Taken as printed, the published Approach-3 constants give N_opt ≈ {n} and {ratio:.0f} tokens per parameter "
        "at Gopher's 5.76·10²³ FLOPs, not 70B and 20: the ratio is very sensitive to the rounding of α and β "
        "(moving α and β by up to ±0.005 spans about 44 to 196 tokens per parameter).",
        "按 C = 6·N·D 标出：GPT-3，1750 亿参数、3000 亿词元（2005.14165；每参数 {gpt3:.1f} 个词元）；Gopher，2800 亿"
        "参数、3000 亿词元（2112.11446）；Chinchilla，700 亿参数、1.4 万亿词元（每参数 {chin:.0f} 个词元），用的是 "
        "Gopher 的计算预算，并在大量评测上胜过 Gopher 和 GPT-3（2203.15556）。直接按公布的数值计算，方法 3 的常数"
        "在 Gopher 的 5.76·10²³ FLOPs 下给出 N_opt ≈ {n}、每参数 {ratio:.0f} 个词元，而不是 700 亿和 20：这个比值"
        "对 α 和 β 的舍入非常敏感（α 和 β 各变动不超过 ±0.005，结果就会落在每参数约 44 到 196 个词元之间）。",
    ),
    # 4 · Megatron
    "scaling.mega.title": ("4 · Megatron-LM: one layer split over t devices", "4 · Megatron-LM：把一层拆到 t 台设备上"),
    "scaling.mega.caption": (
        "Megatron-LM (1909.08053) splits each transformer layer over t GPUs without changing its maths. The MLP's "
        "first matrix A is split by columns, so each device applies GeLU to its own slice of XA with no "
        "communication; the second matrix B is split by rows, so each device's product is a partial sum, and one "
        "all-reduce adds them. Attention splits the same way by heads: Q, K and V by columns (each device keeps "
        "H/t heads whole), the output projection W_O by rows, then one all-reduce. The operator f is the identity "
        "forward and an all-reduce of the gradient backward; g is an all-reduce forward and the identity backward: "
        "two all-reduces per layer forward, two backward. The paper trained GPT-2-style models of up to 8.3B "
        "parameters this way, on 512 GPUs.",
        "Megatron-LM（1909.08053）把每个 Transformer 层拆到 t 块 GPU 上，而不改变其数学。MLP 的第一个矩阵 A 按列"
        "拆分，每台设备对自己那一片 XA 施加 GeLU，无需通信；第二个矩阵 B 按行拆分，每台设备的乘积是部分和，由一次 "
        "all-reduce（全归约）相加。注意力按头以同样方式拆分：Q、K、V 按列（每台设备完整保留 H/t 个头），输出投影 "
        "W_O 按行，然后一次 all-reduce。算子 f 前向为恒等、反向对梯度做 all-reduce；g 前向做 all-reduce、反向为恒等："
        "每层前向两次 all-reduce，反向两次。论文以这种方式在 512 块 GPU 上训练了最多 83 亿参数的 GPT-2 式模型。",
    ),
    "scaling.mega.model": ("Layer of", "所拆分的层属于"),
    "scaling.layer.ours": (
        "our gpt: {L} layers, C = {C}, {H} heads, MLP {F}",
        "我们的 gpt：{L} 层，C = {C}，{H} 个头，MLP {F}",
    ),
    "scaling.layer.gpt3": (
        "GPT-3 175B: {L} layers, C = {C}, {H} heads, MLP {F}",
        "GPT-3 175B：{L} 层，C = {C}，{H} 个头，MLP {F}",
    ),
    "scaling.mega.t": ("Tensor-parallel degree t", "张量并行度 t"),
    "scaling.mega.t.help": (
        "t must divide the {H} heads and the MLP width {F}.",
        "t 必须同时整除 {H} 个头和 MLP 宽度 {F}。",
    ),
    "scaling.m.weights_device": ("weights per device, this layer", "本层每台设备的权重数"),
    "scaling.m.weights_device.help": (
        "The six matrices' numbers on one device (biases and norms left out); the whole layer holds {whole}.",
        "六个矩阵在一台设备上的数值个数（不计偏置和归一化参数）；整层共 {whole}。",
    ),
    "scaling.m.heads_device": ("heads per device", "每台设备的头数"),
    "scaling.m.heads_device.help": (
        "Each device computes its heads' attention whole: no communication inside attention.",
        "每台设备完整计算自己那些头的注意力：注意力内部无需通信。",
    ),
    "scaling.m.allreduces": ("all-reduces per layer", "每层 all-reduce 次数"),
    "scaling.m.allreduces.help": (
        "Two in the forward pass (g, after attention's W_O and after the MLP's B) and two in the backward pass (f, "
        "on the gradient of each sublayer's input).",
        "前向两次（g，在注意力的 W_O 之后和 MLP 的 B 之后），反向两次（f，作用于每个子层输入的梯度）。",
    ),
    "scaling.col.matrix": ("matrix", "矩阵"),
    "scaling.col.split": ("split", "拆分方式"),
    "scaling.col.whole": ("whole (in × out)", "整体（输入 × 输出）"),
    "scaling.col.device": ("per device", "每台设备"),
    "scaling.split.column": ("by columns (outputs)", "按列（输出）"),
    "scaling.split.row": ("by rows (inputs)", "按行（输入）"),
    "scaling.split.none": ("not split", "不拆分"),
    "scaling.lane.attn_title": ("Attention", "注意力"),
    "scaling.lane.mlp_title": ("MLP", "MLP"),
    "scaling.lane.attn": (
        "device {i} · heads {heads}: Q, K, V columns ({w} each) → softmax(QKᵀ/√d)V → its rows of W_O",
        "设备 {i} · 头 {heads}：Q、K、V 的列（各 {w} 列）→ softmax(QKᵀ/√d)V → W_O 中对应的行",
    ),
    "scaling.lane.mlp": (
        "device {i} · columns {cols} of A → GeLU → the same rows of B",
        "设备 {i} · A 的列 {cols} → GeLU → B 的相同各行",
    ),
    "scaling.lane.x": ("X (B, T, {C}) on every device", "X (B, T, {C})，每台设备一份"),
    "scaling.lane.y": ("Y (B, T, {C}) on every device", "Y (B, T, {C})，每台设备一份"),
    "scaling.lane.f": (
        "f: identity forward, all-reduce of the gradient backward",
        "f：前向恒等，反向对梯度做 all-reduce",
    ),
    "scaling.lane.g": ("g: all-reduce forward, identity backward", "g：前向 all-reduce，反向恒等"),
    "scaling.lane.legend": (
        "f: identity forward, all-reduce of the gradient backward. g: all-reduce of the partial sums forward, "
        "identity backward. Between f and g no device talks to another.",
        "f：前向恒等，反向对梯度做 all-reduce。g：前向对部分和做 all-reduce，反向恒等。f 与 g 之间设备彼此不通信。",
    ),
    "scaling.comm.title": ("What one all-reduce moves", "一次 all-reduce 传输多少"),
    "scaling.comm.batch": ("batch B", "批大小 B"),
    "scaling.comm.tokens": ("tokens per sequence T", "每条序列的词元数 T"),
    "scaling.comm.dtype": ("bytes per number", "每个数的字节数"),
    "scaling.comm.fp16": ("2 (fp16/bf16)", "2（fp16/bf16）"),
    "scaling.comm.fp32": ("4 (fp32)", "4（fp32）"),
    "scaling.m.allreduce": ("one all-reduce", "一次 all-reduce"),
    "scaling.m.allreduce.help": (
        "The tensor it sums: the sublayer's output, B·T·C numbers.",
        "它求和的张量：子层的输出，共 B·T·C 个数。",
    ),
    "scaling.m.ring": ("sent per device (ring)", "每台设备发送量（环形）"),
    "scaling.m.ring.help": (
        "A ring all-reduce over t = {t} devices: each sends 2·(t − 1)/t of the tensor (reduce-scatter, then "
        "all-gather).",
        "在 t = {t} 台设备上做环形 all-reduce：每台发送张量的 2·(t − 1)/t（先 reduce-scatter，再 all-gather）。",
    ),
    "scaling.m.model_step": ("sent per device, per step", "每台设备每步发送量"),
    "scaling.m.model_step.help": (
        "Four all-reduces per layer (two forward, two backward) × {L} layers, ring algorithm.",
        "每层四次 all-reduce（前向两次、反向两次）× {L} 层，环形算法。",
    ),
    "scaling.rec.title": ("Recorded: the split layer equals the whole", "实测：拆分后的层等于整层"),
    "scaling.rec.caption": (
        "`python -m models.recipes.parallel` took layer {layer} of our trained gpt, ran its MLP and attention split "
        "over t processes on this machine (torch.distributed, gloo) on a random input of shape {shape}, summed the "
        "partial outputs with all_reduce, and compared with the unsplit layer.",
        "`python -m models.recipes.parallel` 取我们训练好的 gpt 的层 {layer}，在本机上把它的 MLP 和注意力拆到 t 个进程"
        "（torch.distributed，gloo），输入形状为 {shape} 的随机张量，用 all_reduce 求和部分输出，再与未拆分的层比较。",
    ),
    "scaling.rec.bytes": (
        "Every all-reduce, counted as it ran, moved {bytes} bytes: the layer's output, B·T·C·4 = {B}·{T}·{C}·4 "
        "(float32), the same for every t; what grows with t is the share each device sends, 2·(t − 1)/t.",
        "每次 all-reduce 都在运行时计数，传输 {bytes} 字节：即该层的输出 B·T·C·4 = {B}·{T}·{C}·4（float32），"
        "对每个 t 都相同；随 t 增长的是每台设备发送的份额 2·(t − 1)/t。",
    ),
    "scaling.col.mlp_diff": ("MLP: max |split − whole| / scale", "MLP：max |拆分 − 整体| / 尺度"),
    "scaling.col.attn_diff": ("attention: max |split − whole| / scale", "注意力：max |拆分 − 整体| / 尺度"),
    "scaling.col.allreduce": ("all-reduces (forward)", "all-reduce（前向）"),
    "scaling.col.ring": ("sent per device (ring)", "每台设备发送量（环形）"),
    "scaling.col.ms": ("rank 0 ms", "进程 0 毫秒"),
    "scaling.rec.note": (
        "Differences are divided by the largest |output|, {scale:.1f}; the worst is {worst:.1e}, float32 rounding "
        "from summing in another order. The times come from two CPU cores shared by up to six processes: they show "
        "the cost of communication here, not a speed-up.",
        "差值除以最大的 |输出|（{scale:.1f}）；最大相对差为 {worst:.1e}，是以不同顺序求和造成的 float32 舍入。"
        "时间来自最多六个进程共享的两个 CPU 核：它们反映的是这里的通信开销，而不是加速。",
    ),
    # 5 · ZeRO
    "scaling.zero.title": ("5 · ZeRO: shard what data parallelism copies", "5 · ZeRO：把数据并行复制的东西分片"),
    "scaling.zero.caption": (
        "Data parallelism keeps a whole copy of the training state on each of N_d devices. With mixed-precision "
        "Adam that is 2Ψ bytes of fp16 parameters, 2Ψ of fp16 gradients and KΨ of optimizer states (an fp32 copy of "
        "the parameters, momentum and variance: K = 12), 16Ψ bytes per device for Ψ parameters. ZeRO (1910.02054) "
        "partitions the optimizer states over the N_d devices (stage 1, P_os), then the gradients too (stage 2, "
        "P_os+g), then the parameters too (stage 3, P_os+g+p). Stages 1 and 2 communicate as much as plain data "
        "parallelism; stage 3 1.5 times as much.",
        "数据并行在 N_d 台设备上各保留一份完整的训练状态。用混合精度 Adam 时，这包括 2Ψ 字节的 fp16 参数、2Ψ 字节的 "
        "fp16 梯度和 KΨ 字节的优化器状态（参数的 fp32 副本、动量和方差：K = 12），Ψ 个参数每台设备共 16Ψ 字节。"
        "ZeRO（1910.02054）先把优化器状态分到 N_d 台设备上（阶段 1，P_os），再加上梯度（阶段 2，P_os+g），再加上参数"
        "（阶段 3，P_os+g+p）。阶段 1 和 2 的通信量与普通数据并行相同；阶段 3 为其 1.5 倍。",
    ),
    "scaling.zero.model": ("Model", "模型"),
    "scaling.zero.model.ours": ("our gpt (Ψ = {psi})", "我们的 gpt（Ψ = {psi}）"),
    "scaling.zero.model.gpt3": ("GPT-3 175B (Ψ = {psi})", "GPT-3 175B（Ψ = {psi}）"),
    "scaling.zero.model.paper": ("ZeRO's example (Ψ = {psi})", "ZeRO 论文的示例（Ψ = {psi}）"),
    "scaling.zero.n_d": ("Data-parallel devices N_d", "数据并行设备数 N_d"),
    "scaling.zero.n_d.help": (
        "ZeRO's Figure 1 uses N_d = 64.",
        "ZeRO 的图 1 使用 N_d = 64。",
    ),
    "scaling.stage.0": ("stage 0 · data parallel", "阶段 0 · 数据并行"),
    "scaling.stage.0.help": ("(2 + 2 + K)·Ψ on every device.", "每台设备 (2 + 2 + K)·Ψ。"),
    "scaling.stage.1": ("stage 1 · P_os", "阶段 1 · P_os"),
    "scaling.stage.1.help": (
        "2Ψ + 2Ψ + KΨ/N_d: each device updates only its shard of the parameters. The delta is the share of stage 0.",
        "2Ψ + 2Ψ + KΨ/N_d：每台设备只更新自己那一片参数。下方百分比是相对阶段 0 的占比。",
    ),
    "scaling.stage.2": ("stage 2 · P_os+g", "阶段 2 · P_os+g"),
    "scaling.stage.2.help": (
        "2Ψ + (2 + K)Ψ/N_d: gradients are reduced straight to the device that owns them.",
        "2Ψ + (2 + K)Ψ/N_d：梯度直接归约到负责它的设备。",
    ),
    "scaling.stage.3": ("stage 3 · P_os+g+p", "阶段 3 · P_os+g+p"),
    "scaling.stage.3.help": (
        "(2 + 2 + K)Ψ/N_d: parameters are gathered from their owners when a layer needs them.",
        "(2 + 2 + K)Ψ/N_d：某层需要参数时才从负责的设备收集。",
    ),
    "scaling.part.params": ("fp16 parameters", "fp16 参数"),
    "scaling.part.grads": ("fp16 gradients", "fp16 梯度"),
    "scaling.part.states": ("optimizer states (K = 12)", "优化器状态（K = 12）"),
    "scaling.fig1.title": (
        "ZeRO's Figure 1 (Ψ = 7.5B, N_d = 64, K = 12), GB per device: the paper's numbers against the formula's.",
        "ZeRO 图 1（Ψ = 75 亿，N_d = 64，K = 12），每台设备 GB：论文的数字与公式算出的数字。",
    ),
    "scaling.col.stage": ("stage", "阶段"),
    "scaling.col.paper_gb": ("paper (GB)", "论文（GB）"),
    "scaling.col.computed_gb": ("computed (GB)", "计算值（GB）"),
    "scaling.meas.title": ("Measured: the bytes one Adam step allocates", "实测：一步 Adam 分配的字节数"),
    "scaling.meas.caption": (
        "`python -m models.recipes.parallel` ran one real mixed-precision Adam step on our gpt (Ψ = {psi} "
        "parameters) and counted the bytes of every tensor it holds.",
        "`python -m models.recipes.parallel` 在我们的 gpt（Ψ = {psi} 个参数）上真实运行了一步混合精度 Adam，"
        "并统计它持有的每个张量的字节数。",
    ),
    "scaling.col.what": ("what", "项目"),
    "scaling.col.formula": ("formula (bytes)", "公式（字节）"),
    "scaling.col.measured": ("measured (bytes)", "实测（字节）"),
    "scaling.col.per_psi": ("measured / Ψ", "实测 / Ψ"),
    "scaling.meas.params": ("fp16 parameters", "fp16 参数"),
    "scaling.meas.grads": ("fp16 gradients", "fp16 梯度"),
    "scaling.meas.master": ("fp32 master copy", "fp32 主副本"),
    "scaling.meas.adam": ("Adam's momentum and variance (fp32)", "Adam 的动量和方差（fp32）"),
    "scaling.meas.extra": (
        "Adam's states hold {extra} bytes beyond 8Ψ: one 4-byte step count per parameter tensor. In all "
        "{total:.4f}Ψ bytes: (2 + 2 + K)Ψ with K = 4 + 8 = 12.",
        "Adam 的状态比 8Ψ 多 {extra} 字节：每个参数张量一个 4 字节的步数计数。合计 {total:.4f}Ψ 字节，即 "
        "(2 + 2 + K)Ψ，K = 4 + 8 = 12。",
    ),
    "scaling.m.one_process": ("Adam state, one process", "Adam 状态，单进程"),
    "scaling.m.one_process.help": (
        "torch.optim.Adam over all of our gpt's parameters (fp32): momentum, variance and step counts.",
        "torch.optim.Adam 作用于我们 gpt 的全部参数（fp32）：动量、方差和步数计数。",
    ),
    "scaling.m.rank": ("rank {rank}, ZeRO stage 1", "进程 {rank}，ZeRO 阶段 1"),
    "scaling.m.rank.help": (
        "PyTorch's ZeroRedundancyOptimizer over {world} gloo processes: the Adam state this rank holds, and its "
        "share of one process's.",
        "PyTorch 的 ZeroRedundancyOptimizer 跨 {world} 个 gloo 进程：该进程持有的 Adam 状态，及其占单进程的比例。",
    ),
    "scaling.meas.zro": (
        "Over {world} processes the shards add up to exactly one process's state. PyTorch assigns whole parameter "
        "tensors to ranks, so the halves are close but not equal.",
        "在 {world} 个进程上，各分片之和恰好等于单进程的状态。PyTorch 按整个参数张量分配给各进程，所以两半接近但不"
        "完全相等。",
    ),
    "scaling.meas.zro_differs": (
        "Over {world} processes the shards do not add up to one process's state (different step counts or "
        "parameters): see the recorded file.",
        "在 {world} 个进程上，各分片之和不等于单进程的状态（步数计数或参数不同）：请查看记录文件。",
    ),
}
