"""English and 简体中文 text of the DeepSeek-V3 page."""

STRINGS = {
    "mla.intro": (
        "DeepSeek-V3 (2412.19437) is a mixture-of-experts model of 671B parameters, 37B of which compute each token. "
        "Three of its choices are probed here on small models trained on this site: **multi-head latent attention** "
        "(MLA, from DeepSeek-V2, 2405.04434), which caches one small latent per token instead of keys and values; "
        "**balancing the experts with a bias** on the routing scores instead of an auxiliary loss; and a "
        "**multi-token-prediction** (MTP) module that predicts the token after next and can draft tokens for "
        "speculative decoding. Every section reads the text below.",
        "DeepSeek-V3（2412.19437）是一个 6710 亿参数的混合专家模型，每个词元只用到其中 370 亿。这里在本站训练的"
        "小模型上探查它的三个选择：**多头潜在注意力**（MLA，来自 DeepSeek-V2，2405.04434），每个词元只缓存一个"
        "很小的潜在向量，而不是键和值；用加在路由得分上的**偏置来均衡专家负载**，而不是辅助损失；以及一个"
        "**多词元预测**（MTP）模块，它预测下下个词元，还能为推测解码起草词元。每一节都读取下面的文本。",
    ),
    "mla.try.do": (
        "In section 1 drag the slider under the latent's figure from token to token and compare the next tokens of "
        "both paths at its bottom, then read the metrics under “Absorbed against naive”; in “Why RoPE is decoupled” "
        "switch the head; in section 3 change the number of new tokens.",
        "在第 1 节拖动潜在向量图下方的滑块，逐个词元比较图底部两条路径的下一个词元，再看“吸收路径与朴素路径”下的"
        "指标；在“为什么要解耦 RoPE”中切换注意力头；在第 3 节改变新词元的数量。",
    ),
    "mla.try.see": (
        "Every token has its own latent, yet the absorbed path's logits match the naive path's to about 10⁻⁵. With "
        "RoPE on the content keys the absorbed scores are off by tens of percent, everywhere but the first key. In "
        "speculative decoding the green tokens came from accepted MTP drafts, and the text is the same as plain "
        "greedy decoding.",
        "每个词元都有自己的潜在向量，但吸收路径的 logits 与朴素路径相差只有约 10⁻⁵。若对内容键施加 RoPE，"
        "吸收路径的得分会偏差几十个百分点，只有第一个键例外。在推测解码中，绿色词元来自被接受的 MTP 草稿，"
        "而生成的文本与普通贪心解码完全相同。",
    ),
    "mla.try.why": (
        "W_UK can move into the query only if nothing that depends on the key's position sits between it and c_KV; "
        "a rotation R(j) does, so DeepSeek carries position in a separate rotary key shared by all heads. A draft "
        "saves a forward only when the main model would have chosen the same token.",
        "只有当 W_UK 与 c_KV 之间没有任何依赖键位置的东西时，W_UK 才能移到查询一侧；旋转 R(j) 恰恰依赖键的位置，"
        "所以 DeepSeek 把位置信息放进一个单独的、所有头共享的旋转键。只有当主模型本来就会选同一个词元时，"
        "草稿才能省下一次前向计算。",
    ),
    "mla.text": ("Text", "文本"),
    "mla.text.help": (
        "At most {chars} characters and 128 tokens (the training context of every model here).",
        "最多 {chars} 个字符、128 个词元（这里每个模型训练时的上下文长度）。",
    ),
    "mla.missing": ("Not installed: {names}.", "未安装：{names}。"),
    # 1 · the cache
    "mla.cache.title": ("1 · Multi-head latent attention: cache a latent", "1 · 多头潜在注意力：只缓存潜在向量"),
    "mla.cache.caption": (
        "With multi-head attention (MHA) each layer caches a key and a value of d_h numbers for every one of its n_h "
        "heads: 2·n_h·d_h numbers per token per layer. GQA (n_g key/value heads) and MQA (one) share heads to cache "
        "less. MLA caches instead the latent c_KV = W_DKV h of d_c numbers, from which every head's keys and values "
        "are made again (W_UK c_KV, W_UV c_KV), plus one rotary key k^R of d_h^R numbers shared by all heads: "
        "(d_c + d_h^R) numbers per token per layer (DeepSeek-V2, Table 1). Left: our four decoders, trained alike "
        "(612 steps, the same batches; 4 layers, 4 query heads of d_h = 48). Right: DeepSeek-V3's attention "
        "(61 layers, 128 heads of d_h = 128, d_c = 512, d_h^R = 64) counted under each design.",
        "多头注意力（MHA）的每一层要为 n_h 个头各缓存一个 d_h 维的键和值：每个词元每层 2·n_h·d_h 个数。"
        "GQA（n_g 个键/值头）和 MQA（一个）通过共享头来少缓存一些。MLA 则缓存潜在向量 c_KV = W_DKV h（d_c 个数），"
        "每个头的键和值都由它重新生成（W_UK c_KV、W_UV c_KV），另加一个所有头共享的旋转键 k^R（d_h^R 个数）："
        "每个词元每层 (d_c + d_h^R) 个数（DeepSeek-V2 表 1）。左：我们以相同方式训练的四个解码器（612 步、"
        "相同批次；4 层，4 个 d_h = 48 的查询头）。右：按每种设计计算 DeepSeek-V3 的注意力（61 层，128 个"
        "d_h = 128 的头，d_c = 512，d_h^R = 64）。",
    ),
    "mla.numbers_per_token": ("numbers cached per token (all layers)", "每个词元缓存的数（所有层）"),
    "mla.cache.ours": ("Our trained decoders", "我们训练的解码器"),
    "mla.cache.v3": ("DeepSeek-V3's published sizes", "DeepSeek-V3 公布的尺寸"),
    "mla.kind.MHA": ("MHA (128 KV heads)", "MHA（128 个 KV 头）"),
    "mla.kind.GQA": ("GQA (8 KV heads)", "GQA（8 个 KV 头）"),
    "mla.kind.MQA": ("MQA (1 KV head)", "MQA（1 个 KV 头）"),
    "mla.kind.MLA": ("MLA (what V3 caches)", "MLA（V3 实际缓存的）"),
    "mla.m.cache_mla": ("MLA cache per token", "MLA 每词元缓存"),
    "mla.m.cache_mla.help": (
        "Measured from the cache tensors after a cached forward (float32): {formula} = {n} numbers × 4 bytes.",
        "在一次带缓存的前向计算后由缓存张量实测（float32）：{formula} = {n} 个数 × 4 字节。",
    ),
    "mla.m.vs_mha": ("MHA caches", "MHA 的缓存"),
    "mla.m.vs_mha.help": (
        "How many times more numbers llama-mha caches per token than mla.",
        "llama-mha 每个词元缓存的数是 mla 的多少倍。",
    ),
    "mla.m.vs_mqa": ("MLA against MQA", "MLA 与 MQA 之比"),
    "mla.m.vs_mqa.help": (
        "Ours caches even less than MQA: d_c + d_h^R = 64 + 16 = 80 numbers per layer against MQA's 2·d_h = 96. "
        "DeepSeek's proportions (d_c = 4·d_h) put MLA between GQA with 2 and with 3 groups instead.",
        "我们的 MLA 比 MQA 缓存得还少：每层 d_c + d_h^R = 64 + 16 = 80 个数，MQA 为 2·d_h = 96。"
        "按 DeepSeek 的比例（d_c = 4·d_h），MLA 则介于 2 组和 3 组的 GQA 之间。",
    ),
    "mla.m.v3_ratio": ("DeepSeek-V3: MHA ÷ MLA", "DeepSeek-V3：MHA ÷ MLA"),
    "mla.m.v3_ratio.help": (
        "Elements per token over all 61 layers: {mla:,} with MLA, against {mha:,} if the same 128 heads of 128 "
        "dimensions cached their keys and values.",
        "61 层合计每个词元的元素数：MLA 为 {mla:,}；若同样 128 个 128 维的头缓存各自的键和值，则为 {mha:,}。",
    ),
    "mla.cache.groups": (
        "In GQA terms (numbers cached ÷ 2·d_h·L): our MLA caches as much as {ours:.2f} key/value heads, "
        "DeepSeek-V3's as {v3:.2f}: the 2.25 groups DeepSeek-V2 quotes for d_c = 4·d_h and d_h^R = d_h/2.",
        "换算成 GQA（缓存的数 ÷ 2·d_h·L）：我们的 MLA 相当于 {ours:.2f} 个键/值头，DeepSeek-V3 的相当于 "
        "{v3:.2f} 个，正是 DeepSeek-V2 针对 d_c = 4·d_h、d_h^R = d_h/2 给出的 2.25 组。",
    ),
    "mla.cache.loss": (
        "Held-out bits per character against the cache, two seeds each (the GQA point is llama's configuration "
        "trained the same way as the others).",
        "留出数据上的每字符比特数与缓存大小的关系，各两个随机种子（GQA 点是 llama 的配置按相同方式训练的结果）。",
    ),
    "mla.kib_token": ("KiB cached per token (float32)", "每词元缓存 KiB（float32）"),
    "mla.val_bpc": ("held-out bits per character", "留出数据每字符比特数"),
    "mla.seed0": ("seed 0", "种子 0"),
    "mla.seed1": ("seed 1", "种子 1"),
    "mla.cache.compare": (
        "mla: {mla:.4f} bits per character, llama-mha: {mha:.4f}. Two seeds of one model differ by up to "
        "{spread:.4f}: measure the gaps between the designs against that.",
        "mla：每字符 {mla:.4f} 比特，llama-mha：{mha:.4f}。同一模型的两个种子相差可达 {spread:.4f}："
        "比较设计之间的差距时要以此为尺度。",
    ),
    "mla.cache.table": ("The formulas and the numbers", "公式与数值"),
    "mla.col.model": ("model", "模型"),
    "mla.col.formula": ("numbers per token", "每词元的数"),
    "mla.col.numbers": ("count", "数量"),
    "mla.col.bytes": ("measured bytes per token", "实测每词元字节"),
    "mla.col.design": ("design", "设计"),
    "mla.col.bf16": ("per token (BF16)", "每词元（BF16）"),
    "mla.col.context": ("128K tokens", "128K 词元"),
    "mla.cache.table_note": (
        "DeepSeek-V2 counts elements, whatever the storage precision; the bytes here assume 2 per element (BF16). "
        "The MHA, GQA ({groups} key/value heads, as in Llama 2 70B) and MQA rows are what V3's 61 layers of 128 heads "
        "× 128 dimensions would cache under those designs; V3 caches the MLA row.",
        "DeepSeek-V2 按元素个数计，与存储精度无关；这里的字节数按每个元素 2 字节（BF16）计算。MHA、GQA"
        "（{groups} 个键/值头，如 Llama 2 70B）和 MQA 三行是 V3 的 61 层、128 个 128 维的头在这些设计下会缓存的量；"
        "V3 实际缓存的是 MLA 一行。",
    ),
    # 1 · the latent of a token
    "mla.latent.title": ("The latent of one token and the keys it makes", "一个词元的潜在向量及它生成的键"),
    "mla.latent.caption": (
        "What one layer of mla keeps for the chosen token: the latent c_KV ({K} numbers, after its RMSNorm) and the "
        "shared rotary key k^R ({R}). The naive path turns the latent into {H} keys of {D} numbers (W_UK c_KV) and as "
        "many values (W_UV c_KV) each time attention reads it; only the latent is stored.",
        "mla 的一层为所选词元保留的内容：潜在向量 c_KV（{K} 个数，经过 RMSNorm）和共享旋转键 k^R（{R} 个数）。"
        "朴素路径在每次注意力读取时把潜在向量变成 {H} 个 {D} 维的键（W_UK c_KV）和同样多的值（W_UV c_KV）；"
        "存下来的只有潜在向量。",
    ),
    "mla.token": ("Token", "词元"),
    "mla.layer": ("Layer", "层"),
    "mla.head": ("Head", "头"),
    "mla.m.cached_here": ("Cached / MHA would cache", "缓存量 / MHA 的缓存量"),
    "mla.m.cached_here.help": (
        "Numbers this layer keeps for the token: d_c + d_h^R = {K} + {R}, against 2·n_h·d_h = 2·{H}·{D} for the "
        "keys and values of MHA.",
        "这一层为该词元保留的数：d_c + d_h^R = {K} + {R}；MHA 的键和值则是 2·n_h·d_h = 2·{H}·{D}。",
    ),
    "mla.latent.steps": (
        "Layer {layer}, every token of the text: drag the slider under the figure to pick one (0 is the ⟨eot⟩ that "
        "starts every text). Top: its c_KV (purple) and k^R (orange), everything this layer caches for it; middle: "
        "the keys k^C = W_UK c_KV the latent makes, one line per head; bottom: the next token on both paths.",
        "层 {layer}，文本中的每个词元：拖动图下方的滑块选一个（0 是每段文本开头的 ⟨eot⟩）。上：它的 c_KV（紫色）"
        "和 k^R（橙色），即这一层为它缓存的全部内容；中：潜在向量生成的键 k^C = W_UK c_KV，每个头一条线；"
        "下：两条路径上的下一个词元。",
    ),
    "mla.latent.bars.title": ("What this layer caches: c_KV and k^R", "这一层缓存的内容：c_KV 与 k^R"),
    "mla.latent.keys.title": ("The keys k^C = W_UK c_KV, one per head", "键 k^C = W_UK c_KV，每个头一个"),
    "mla.readout": (
        "token {token} ({piece}) · ‖c_KV‖ {latent} · ‖k^R‖ {rope}",
        "词元 {token}（{piece}）· ‖c_KV‖ {latent} · ‖k^R‖ {rope}",
    ),
    "mla.readout.keys": ("‖k^C‖ over the heads: {lo}–{hi}", "各头 ‖k^C‖：{lo}–{hi}"),
    "mla.readout.help": (
        "‖c_KV‖: the length of the token's latent in this layer (after the RMSNorm on c_KV, whose gain is learned). "
        "‖k^R‖: the length of the shared rotary key; RoPE turns pairs of its numbers by angles that grow with the "
        "position, which leaves the length unchanged. ‖k^C‖: the shortest and longest of the {H} keys this one "
        "latent makes, a different key for every head. Under them, the likeliest next tokens after the token with "
        "their probabilities, on the naive and on the absorbed path.",
        "‖c_KV‖：该词元在这一层的潜在向量长度（经过 c_KV 上的 RMSNorm，其增益是学出来的）。‖k^R‖：共享旋转键的"
        "长度；RoPE 按随位置增长的角度旋转其中的数对，长度不变。‖k^C‖：这一个潜在向量生成的 {H} 个键中最短和最长"
        "的长度，每个头得到不同的键。最下方：该词元之后最可能的下一个词元及其概率，分别来自朴素路径和吸收路径。",
    ),
    "mla.value": ("value", "数值"),
    "mla.dim": ("dimension", "维度"),
    # 1 · absorbed against naive
    "mla.absorb.title": ("Absorbed against naive", "吸收路径与朴素路径"),
    "mla.absorb.caption": (
        "At inference the up-projections need not run. A content score is q^C_h·k^C_h = q^C_h·(W_UK,h c_KV) = "
        "(W_UK,hᵀ q^C_h)·c_KV: W_UK moves to the query side and the query meets the cached latent directly. Likewise "
        "W_O,h W_UV,h is one matrix applied to the attention-weighted latent Σ_j p_j c_KV,j, so no value is made "
        "either (DeepSeek-V2 §2.1.2). Both paths ran on your text with the trained weights; they differ only by "
        "float rounding.",
        "推理时不必执行上投影。内容得分 q^C_h·k^C_h = q^C_h·(W_UK,h c_KV) = (W_UK,hᵀ q^C_h)·c_KV：W_UK 移到查询"
        "一侧，查询直接与缓存的潜在向量相乘。同样，W_O,h W_UV,h 是一个矩阵，作用在按注意力加权的潜在向量 "
        "Σ_j p_j c_KV,j 上，所以值也不必生成（DeepSeek-V2 §2.1.2）。两条路径都用训练好的权重在你的文本上运行，"
        "差别只来自浮点舍入。",
    ),
    "mla.m.max_diff": ("max |Δ logits|", "max |Δ logits|"),
    "mla.m.max_diff.help": (
        "Largest difference between the naive and the absorbed path over every logit of every position (the logits "
        "reach {scale:.1f}): float32 rounding. The card's absorbed_max_diff is held to ≤ 1e-4.",
        "朴素路径与吸收路径在所有位置、所有 logit 上的最大差（logit 最大到 {scale:.1f}）：float32 舍入误差。"
        "模型卡中的 absorbed_max_diff 要求 ≤ 1e-4。",
    ),
    "mla.m.top1": ("Same greedy token", "贪心词元相同"),
    "mla.m.top1.help": (
        "Share of the {n} positions whose likeliest next token is the same on both paths.",
        "{n} 个位置中，两条路径给出相同最可能下一个词元的比例。",
    ),
    "mla.m.naive_ms": ("Naive path", "朴素路径"),
    "mla.m.absorbed_ms": ("Absorbed path", "吸收路径"),
    "mla.m.ms.help": (
        "One forward of the whole text on this machine. At this size the absorbed path saves no time: it pays off "
        "when the cache is long and reading memory, not arithmetic, bounds decoding.",
        "在本机上对整段文本做一次前向计算。在这个规模上吸收路径并不省时间：只有当缓存很长、解码受限于读取显存"
        "而不是算术时，它才有收益。",
    ),
    "mla.absorb.next": (
        "The next tokens after each token on both paths, with their probabilities, are at the bottom of the figure "
        "above: move its slider to compare them.",
        "每个词元之后在两条路径上的下一个词元及其概率，见上图底部：拖动它的滑块进行比较。",
    ),
    "mla.col.naive": ("naive", "朴素"),
    "mla.col.absorbed": ("absorbed", "吸收"),
    # 1 · why RoPE is decoupled
    "mla.rope.title": ("Why RoPE is decoupled", "为什么要解耦 RoPE"),
    "mla.rope.caption": (
        "RoPE turns the query at position t by R(t) and the key at position j by R(j), so their dot product depends "
        "on j − t. Had MLA rotated its content keys, a score would read q^C·R(t)ᵀR(j)·W_UK c_KV,j: R(j) sits between "
        "W_UK and the latent, changes with the key's position, and no fixed matrix on the query side can stand for "
        "it. Below, one layer's trained weights on your text with RoPE applied to q^C and k^C (the design MLA "
        "avoids), computed both ways: left the exact scores, right the absorbed path folding W_UK into the rotated "
        "query.",
        "RoPE 把位置 t 的查询旋转 R(t)，把位置 j 的键旋转 R(j)，于是点积只依赖 j − t。假如 MLA 旋转内容键，"
        "得分就成了 q^C·R(t)ᵀR(j)·W_UK c_KV,j：R(j) 夹在 W_UK 与潜在向量之间，随键的位置而变，查询一侧没有任何"
        "固定矩阵能代替它。下面用某一层训练好的权重，在你的文本上对 q^C 和 k^C 施加 RoPE（MLA 所回避的设计），"
        "用两种方法计算：左边是精确得分，右边是把 W_UK 并入旋转后查询的吸收路径。",
    ),
    "mla.m.decoupled_error": ("Absorbed vs exact: MLA as built", "吸收与精确之差：MLA 本身"),
    "mla.m.coupled_error": ("Absorbed vs exact: RoPE on content keys", "吸收与精确之差：对内容键施加 RoPE"),
    "mla.m.rope_error.help": (
        "max |absorbed − exact| ÷ max |exact| over the causal content scores of all heads of this layer.",
        "这一层所有头的因果内容得分上，max |吸收 − 精确| ÷ max |精确|。",
    ),
    "mla.rope.exact": ("exact: R(t)q^C · R(j)W_UK c_KV", "精确：R(t)q^C · R(j)W_UK c_KV"),
    "mla.rope.attempt": ("absorbed: (W_UKᵀR(t)q^C) · c_KV", "吸收：(W_UKᵀR(t)q^C) · c_KV"),
    "mla.score": ("score", "得分"),
    "mla.rope.by_key": (
        "The largest error at each key position: zero only at key 0, which RoPE leaves unturned.",
        "每个键位置上的最大误差：只有键 0 处为零，因为 RoPE 不旋转位置 0。",
    ),
    "mla.rope.coupled": ("RoPE on content keys", "对内容键施加 RoPE"),
    "mla.rope.decoupled": ("MLA (decoupled)", "MLA（解耦）"),
    "mla.key_position": ("key position", "键位置"),
    "mla.abs_error": ("|absorbed − exact|", "|吸收 − 精确|"),
    "mla.rope.why": (
        "So DeepSeek-V2 keeps the content part free of rotation and carries position in a separate part: per-head "
        "rotary queries q^R = RoPE(W_QR c_Q) and one rotary key k^R = RoPE(W_KR h) shared by all heads, each d_h^R "
        "wide. A score is (q^C·k^C + q^R·k^R) / √(d_h + d_h^R); only k^R joins the latent in the cache.",
        "因此 DeepSeek-V2 让内容部分不做旋转，把位置信息放在单独的部分：每个头的旋转查询 q^R = RoPE(W_QR c_Q)，"
        "以及所有头共享的一个旋转键 k^R = RoPE(W_KR h)，宽度都是 d_h^R。得分为 (q^C·k^C + q^R·k^R) / "
        "√(d_h + d_h^R)；缓存里只多了 k^R。",
    ),
    # 2 · balancing
    "mla.balance.title": ("2 · Balancing without an auxiliary loss", "2 · 不用辅助损失的负载均衡"),
    "mla.balance.caption": (
        "A router that sends most tokens to a few experts wastes the others. Switch adds a loss α·E·Σᵢ fᵢ·Pᵢ to "
        "the training loss, and its gradient also pulls on what the model learns. DeepSeek-V3 (§2.1.2) adds instead "
        "a bias bᵢ to each expert's score, only to pick the top-k; the weight that multiplies the expert's output "
        "still comes from the unbiased score. After every step bᵢ goes down by γ if expert i was overloaded in that "
        "batch and up by γ if it was underloaded. switch-auxfree is our switch (6 routed experts + 1 shared, top-1, "
        "3 MoE layers) trained with α = 0 and this bias; switch keeps its loss (α = 0.01). Same data, steps and seed. "
        "Two departures from the paper: ours keeps Switch's capacity and drops the tokens past it, where DeepSeek-V3 "
        "drops none in training or inference; and it has no complementary sequence-wise balance loss (the paper's, "
        "with a very small α).",
        "路由器若把大多数词元送给少数专家，其余专家就被浪费了。Switch 在训练损失中加入 α·E·Σᵢ fᵢ·Pᵢ，它的梯度"
        "也会牵动模型学到的内容。DeepSeek-V3（§2.1.2）改为给每个专家的得分加一个偏置 bᵢ，只用于选出 top-k；"
        "与专家输出相乘的权重仍来自未加偏置的得分。每一步之后，若专家 i 在该批次中过载，bᵢ 减小 γ，欠载则增加 γ。"
        "switch-auxfree 是我们的 switch（6 个路由专家 + 1 个共享专家，top-1，3 个 MoE 层）在 α = 0 并使用该偏置时"
        "训练的结果；switch 保留它的损失（α = 0.01）。数据、步数和随机种子都相同。"
        "与论文有两处不同：我们的模型沿用 Switch 的容量上限并丢弃超出的词元，"
        "而 DeepSeek-V3 在训练和推理中都不丢弃词元；"
        "我们也没有论文中那个系数极小的补充性序列级平衡损失。",
    ),
    "mla.m.val_loss": ("{name}: held-out loss", "{name}：留出损失"),
    "mla.m.val_loss.help": (
        "Nats per token on the held-out windows of the three domains (from the card).",
        "三个领域留出窗口上的每词元奈特数（来自模型卡）。",
    ),
    "mla.m.cv_max": ("{name}: load CV", "{name}：负载变异系数"),
    "mla.m.cv.help": (
        "Coefficient of variation (std ÷ mean) of the tokens each expert processed on the held-out windows, the "
        "worst of the three layers (the card's load_cv_max, after the capacity cut).",
        "留出窗口上各专家处理的词元数的变异系数（标准差 ÷ 均值），取三层中最差者（模型卡的 load_cv_max，"
        "容量截断之后）。",
    ),
    "mla.balance.curves": (
        "Load over training (log scale): each point is the mean over {every} steps of the CV of one training batch's "
        "load ({N} tokens, before the capacity cut). A router choosing uniformly at random would still show a CV of "
        "about {floor:.3f} on batches of that size (dotted). Markers after the last step: the routed load on the "
        "held-out windows.",
        "训练过程中的负载（对数坐标）：每个点是 {every} 步内单个训练批次负载（{N} 个词元，容量截断之前）的变异"
        "系数的均值。一个完全随机均匀选择的路由器在这样大小的批次上也会有约 {floor:.3f} 的变异系数（虚线）。"
        "最后一步之后的标记：留出窗口上的路由负载。",
    ),
    "mla.balance.twin": (
        "The dashed switch curves come from switch's recipe run again inside switch-auxfree's training command (the "
        "same seed, initialisation and batches, the auxiliary loss instead of the bias), so both curves were recorded "
        "the same way. That rerun reached a held-out loss of {loss:.4f} and a worst-layer load CV of {cv:.4f}; the "
        "shipped switch, trained earlier, {shipped:.4f}.",
        "虚线的 switch 曲线来自在 switch-auxfree 的训练命令中重新运行的 switch 配方（相同的随机种子、初始化和批次，"
        "用辅助损失而不是偏置），所以两条曲线的记录方式相同。这次重跑在留出数据上的损失为 {loss:.4f}，"
        "最差层负载变异系数为 {cv:.4f}；较早训练并发布的 switch 为 {shipped:.4f}。",
    ),
    "mla.balance.no_switch_curve": (
        "switch's card records no load over training (it was trained before this curve was recorded and not "
        "retrained), so only its held-out load (square markers) compares.",
        "switch 的模型卡没有记录训练过程中的负载（它在记录这条曲线之前训练，之后没有重新训练），"
        "因此只能比较它在留出数据上的负载（方形标记）。",
    ),
    "mla.balance.bias": (
        "The biases bᵢ at the end of training (γ = {gamma} per step): negative for experts the router favours, "
        "positive for those it neglects. They are on the scale of the softmax probabilities they are added to, so "
        "they decide many choices.",
        "训练结束时的偏置 bᵢ（每步 γ = {gamma}）：路由器偏爱的专家为负，被冷落的专家为正。它们与所加的 softmax "
        "概率同一量级，所以决定了很多选择。",
    ),
    "mla.held_out": ("held out", "留出数据"),
    "mla.floor": ("random router", "随机路由器"),
    "mla.step": ("training step", "训练步"),
    "mla.load_cv": ("load CV (std ÷ mean)", "负载变异系数（标准差 ÷ 均值）"),
    "mla.expert": ("expert", "专家"),
    "mla.route.title": ("Your text, routed by both models", "两个模型对你的文本的路由"),
    "mla.route.caption": (
        "Each model reads the text with its own tokenizer (byte-level BPE, 1,024 ids). Tokens sit on the colour of "
        "their expert in the chosen MoE layer; in switch-auxfree a thick border marks a token whose expert the bias "
        "changed (the largest unbiased probability pointed to another).",
        "每个模型用自己的分词器（字节级 BPE，1,024 个 id）读取文本。词元的底色是它在所选 MoE 层中的专家；"
        "在 switch-auxfree 中，粗框标出专家被偏置改变的词元（未加偏置的最大概率指向另一个专家）。",
    ),
    "mla.moe_layer": ("MoE layer", "MoE 层"),
    "mla.route.changed_word": ("chosen by the bias", "由偏置选定"),
    "mla.m.route_cv": ("{name}: load CV here", "{name}：此处负载变异系数"),
    "mla.m.route_cv.help": (
        "std ÷ mean of the tokens per expert in this layer on your text. A short text is a small batch: compare with "
        "the random-router line above.",
        "你的文本在这一层每个专家分到的词元数的标准差 ÷ 均值。短文本是很小的批次：请与上面随机路由器的虚线比较。",
    ),
    "mla.m.changed": ("Choices the bias changed", "被偏置改变的选择"),
    "mla.m.changed.help": (
        "Tokens of your text in this layer whose expert is not the one with the largest unbiased probability: the "
        "bias, not the router's preference, decided.",
        "你的文本在这一层中，所选专家不是未加偏置概率最大者的词元数：是偏置而不是路由器的偏好做了决定。",
    ),
    "mla.m.weight_gap": ("max |g − p(chosen)|", "max |g − p(所选)|"),
    "mla.m.weight_gap.help": (
        "The weight g of the chosen expert's output against its unbiased router probability, over the tokens kept: "
        "0, since the bias selects but never weights.",
        "所选专家输出的权重 g 与其未加偏置的路由概率之差，在保留的词元上取最大：为 0，因为偏置只参与选择、"
        "从不参与加权。",
    ),
    "mla.tokens": ("tokens", "词元数"),
    "mla.route.note": (
        "Tokens per expert in the chosen layer; dotted: an even share.",
        "所选层中每个专家的词元数；虚线为平均分配。",
    ),
    "mla.moe_link": (
        "Routing, capacity and the load-balancing loss step by step: the MoE page",
        "路由、容量与负载均衡损失的逐步讲解：MoE 页面",
    ),
    "mla.llama_link": (
        "MHA, GQA and MQA with their KV caches: the LLaMA page",
        "MHA、GQA、MQA 及其 KV 缓存：LLaMA 页面",
    ),
    # 3 · multi-token prediction
    "mla.mtp.title": ("3 · Multi-token prediction", "3 · 多词元预测"),
    "mla.mtp.caption": (
        "DeepSeek-V3 (§2.2) trains one extra module beside the main model: at position i it combines the main "
        "model's last hidden state $h_i$ with the embedding of the next token $t_{i+1}$, runs one Transformer "
        "block and predicts $t_{i+2}$ through the shared output head; the loss is "
        "$\\mathcal{L}_\\text{main} + \\lambda\\,\\mathcal{L}_\\text{MTP}$ ($\\lambda$ = 0.3, later 0.1). Our "
        "mtp is the llama decoder with such a module, trained like its siblings. Both heads on your text: at each "
        "position the main head's guesses for the next token, and the MTP head's for the one after. The paper "
        "calls $h_i$ the main model's representation without saying whether it comes before or after the final "
        "RMSNorm; ours takes it before (our choice).",
        "DeepSeek-V3（§2.2）在主模型旁额外训练一个模块：在位置 i，它把主模型最后的隐藏状态 $h_i$ 与下一个词元 "
        "$t_{i+1}$ 的嵌入结合，经过一个 Transformer 模块，再通过共享的输出头预测 $t_{i+2}$；损失为 "
        "$\\mathcal{L}_\\text{main} + \\lambda\\,\\mathcal{L}_\\text{MTP}$（$\\lambda$ = 0.3，之后为 0.1）。"
        "我们的 mtp 是带这样一个模块的 llama 解码器，训练方式与其兄弟模型相同。下面是两个头在你的文本上的结果："
        "每个位置上主头对下一个词元的猜测，以及 MTP 头对再下一个的猜测。论文只说 $h_i$ 是主模型给出的表示，没说它取在"
        "最后的 RMSNorm 之前还是之后；我们取在之前（这是我们的选择）。",
    ),
    "mla.m.main_hit": ("Main head top-1 = next token", "主头第一名 = 下一个词元"),
    "mla.m.main_hit.help": (
        "Share of the {n} positions of your text where the main head's likeliest token is the actual next one.",
        "你的文本的 {n} 个位置中，主头最可能的词元正是实际下一个词元的比例。",
    ),
    "mla.m.ahead_hit": ("MTP head top-1 = token after next", "MTP 头第一名 = 下下个词元"),
    "mla.m.ahead_hit.help": (
        "Share of the {n} positions where the MTP head (which reads the actual next token) ranks the token after "
        "next first.",
        "{n} 个位置中，MTP 头（读取实际的下一个词元）把下下个词元排在第一的比例。",
    ),
    "mla.col.token": ("token", "词元"),
    "mla.col.main": ("main head: next (top 3)", "主头：下一个（前 3）"),
    "mla.col.next": ("actual next", "实际下一个"),
    "mla.col.ahead": ("MTP head: after next (top 3)", "MTP 头：下下个（前 3）"),
    "mla.col.after_next": ("actual after next", "实际下下个"),
    "mla.spec.title": ("Speculative decoding with the MTP head", "用 MTP 头做推测解码"),
    "mla.spec.caption": (
        "Greedy decoding of the main model, continuing your text. Each forward also lets the MTP head draft the "
        "token after next, and the next forward checks it: if the main model picks the draft, it is accepted and "
        "that forward's following prediction comes with it, two tokens for one forward; if not, only the main "
        "model's token is kept. The text is exactly what plain greedy decoding writes (a test checks it); only the "
        "number of forwards changes.",
        "主模型的贪心解码，接着你的文本往下写。每次前向计算时，MTP 头顺带起草下下个词元，下一次前向计算负责检验："
        "若主模型选中了这个草稿，草稿被接受，这次前向计算的再下一个预测也一并保留，一次前向得到两个词元；否则只保留"
        "主模型自己的词元。生成的文本与普通贪心解码完全相同（有测试检查），变化的只是前向计算的次数。",
    ),
    "mla.n": ("New tokens", "新词元数"),
    "mla.spec.spinner": ("Decoding…", "解码中…"),
    "mla.m.acceptance": ("Acceptance", "接受率"),
    "mla.m.acceptance.help": (
        "{accepted} of {proposed} drafts accepted by the main model.",
        "{proposed} 个草稿中有 {accepted} 个被主模型接受。",
    ),
    "mla.m.tpf": ("Tokens per forward", "每次前向的词元数"),
    "mla.m.tpf.help": (
        "{n} new tokens in {forwards} forwards of the main model (1.0 without drafts; close to 2 when every draft "
        "is accepted).",
        "主模型 {forwards} 次前向计算生成 {n} 个新词元（不起草时为 1.0；草稿全部被接受时接近 2）。",
    ),
    "mla.m.card_acceptance": ("Acceptance (card)", "接受率（模型卡）"),
    "mla.m.card_tpf": ("Tokens per forward (card)", "每次前向词元数（模型卡）"),
    "mla.m.card.help": (
        "Measured on held-out prompts by python -m models.evaluate mtp (greedy).",
        "由 python -m models.evaluate mtp 在留出提示上测得（贪心）。",
    ),
    "mla.spec.accepted": ("accepted draft", "被接受的草稿"),
    "mla.spec.own": ("main model's token", "主模型的词元"),
    "mla.spec.refused": ("refused draft", "被拒绝的草稿"),
    "mla.spec.paper": (
        "DeepSeek-V3 (§5.4.3): the acceptance of the second token is {low:.0%}–{high:.0%} across generation topics, "
        "for {tps}× the tokens per second. Tokens per forward is not tokens per second: our forward re-reads the "
        "whole sequence, and timings of a 2M-parameter model on a CPU say little.",
        "DeepSeek-V3（§5.4.3）：第二个词元的接受率在各类生成主题上为 {low:.0%}–{high:.0%}，每秒词元数提高到 "
        "{tps} 倍。每次前向的词元数并不等于每秒词元数：我们的前向计算每次都重读整个序列，而且 200 万参数模型在 "
        "CPU 上的计时说明不了多少问题。",
    ),
    "mla.mtp.curves": ("Training losses of both heads", "两个头的训练损失"),
    "mla.mtp.main_loss": ("main head (next token)", "主头（下一个词元）"),
    "mla.mtp.ahead_loss": ("MTP head (token after next)", "MTP 头（下下个词元）"),
    "mla.mtp.loss": ("loss (nats per token)", "损失（每词元奈特）"),
    "mla.mtp.bpc": (
        "Main head: {bpc:.4f} bits per character on the held-out plays; the same decoder trained the same way "
        "without the module, by seed: {control}.",
        "主头：留出剧本上每字符 {bpc:.4f} 比特；不带该模块、以同样方式训练的同一解码器（按种子）：{control}。",
    ),
    # 4 · sizes
    "mla.sizes.title": ("4 · DeepSeek-V3's sizes and what each part saved", "4 · DeepSeek-V3 的规模及各部分的节省"),
    "mla.m.total": ("Total parameters", "总参数"),
    "mla.m.active": ("Active per token", "每词元激活"),
    "mla.m.active.help": (
        "Parameters that compute each token (§4.2); the rest sit in experts the router did not choose.",
        "计算每个词元时用到的参数（§4.2）；其余参数在路由器没有选中的专家里。",
    ),
    "mla.m.layers": ("Layers", "层数"),
    "mla.m.layers.help": (
        "The first {dense} use dense feed-forward networks, all others MoE layers.",
        "前 {dense} 层使用稠密前馈网络，其余都是 MoE 层。",
    ),
    "mla.m.experts": ("Experts per MoE layer", "每个 MoE 层的专家"),
    "mla.m.experts.help": (
        "Routed + shared; {k} routed experts per token, on at most {nodes} nodes.",
        "路由专家 + 共享专家；每个词元选 {k} 个路由专家，最多分布在 {nodes} 个节点上。",
    ),
    "mla.col.part": ("part", "部分"),
    "mla.col.what": ("what it does", "做法"),
    "mla.col.saved": ("what it saved", "节省了什么"),
    "mla.saved.mla.part": ("MLA", "MLA"),
    "mla.saved.mla.what": (
        "Caches a 512-number latent and a 64-number rotary key per layer instead of keys and values",
        "每层缓存 512 个数的潜在向量和 64 个数的旋转键，而不是键和值",
    ),
    "mla.saved.mla.saved": (
        "{share:.1%} of what MHA with the same heads would cache; DeepSeek-V2 reports a KV cache {v2:.1%} smaller "
        "than DeepSeek 67B's",
        "只有同样头数的 MHA 缓存量的 {share:.1%}；DeepSeek-V2 报告其 KV 缓存比 DeepSeek 67B 小 {v2:.1%}",
    ),
    "mla.saved.moe.part": ("DeepSeekMoE", "DeepSeekMoE"),
    "mla.saved.moe.what": (
        "256 fine-grained routed experts and 1 shared expert per layer, {k} routed per token",
        "每层 256 个细粒度路由专家和 1 个共享专家，每个词元选 {k} 个路由专家",
    ),
    "mla.saved.moe.saved": (
        "Only {share:.1%} of the parameters compute each token",
        "每个词元只用到 {share:.1%} 的参数",
    ),
    "mla.saved.balance.part": ("Auxiliary-loss-free balancing", "无辅助损失的负载均衡"),
    "mla.saved.balance.what": (
        "A bias on each routed expert's score for the top-k choice, moved by γ after every step",
        "在每个路由专家的得分上加偏置，只用于 top-k 选择，每步之后按 γ 调整",
    ),
    "mla.saved.balance.saved": (
        "No balance loss pulling against the language-model loss: Pile-test bits per byte {small_aux} → "
        "{small_free} (small MoE) and {large_aux} → {large_free} (large MoE) in the paper's ablation; a tiny "
        "sequence-wise loss (α = {alpha}) remains",
        "没有与语言模型损失相抗衡的均衡损失：论文消融实验中 Pile-test 每字节比特数从 {small_aux} 降到 "
        "{small_free}（小 MoE），从 {large_aux} 降到 {large_free}（大 MoE）；仍保留一个很小的序列级损失"
        "（α = {alpha}）",
    ),
    "mla.saved.mtp.part": ("Multi-token prediction", "多词元预测"),
    "mla.saved.mtp.what": (
        "One module (depth 1) predicting the token after next, trained with the main loss",
        "一个预测下下个词元的模块（深度 1），与主损失一起训练",
    ),
    "mla.saved.mtp.saved": (
        "Better benchmark scores in the paper's ablation; as a drafter {low:.0%}–{high:.0%} acceptance and {tps}× "
        "the tokens per second; its {extra:.0f}B weights come on top of the 671B",
        "论文消融实验中基准得分更高；用作草稿模型时接受率 {low:.0%}–{high:.0%}，每秒词元数提高到 {tps} 倍；"
        "它的 {extra:.0f}B 权重不计入 671B",
    ),
    "mla.sizes.note": (
        "Pre-trained on {tokens:.1f}T tokens; the full training took {hours:.3f}M H800 GPU hours (2412.19437).",
        "预训练用了 {tokens:.1f}T 个词元；完整训练共用 {hours:.3f}M H800 GPU 小时（2412.19437）。",
    ),
    # in the paper vs here
    "mla.pvh.model.what": ("model", "模型"),
    "mla.pvh.model.paper": (
        "61 layers, width 7168, DeepSeekMoE; 671B parameters (37B active); 14.8T tokens",
        "61 层，宽度 7168，DeepSeekMoE；6710 亿参数（370 亿激活）；14.8T 词元",
    ),
    "mla.pvh.model.here": (
        "decoders of 4 layers, width 192, about 2M parameters, dense SwiGLU; Shakespeare, byte-level BPE of 2,048 ids",
        "4 层、宽度 192、约 200 万参数的解码器，稠密 SwiGLU；莎士比亚语料，2,048 个 id 的字节级 BPE",
    ),
    "mla.pvh.attention.what": ("attention", "注意力"),
    "mla.pvh.attention.paper": (
        "MLA: n_h = 128, d_h = 128, d_c = 512, d_c' = 1536, d_h^R = 64; 576 numbers per token per layer",
        "MLA：n_h = 128，d_h = 128，d_c = 512，d_c' = 1536，d_h^R = 64；每词元每层 576 个数",
    ),
    "mla.pvh.attention.here": (
        "MLA: 4 heads, d_h = 48, d_c = 64, d_c' = 96, d_h^R = 16; 80 numbers per token per layer; beside MHA, GQA and "
        "MQA twins trained the same way",
        "MLA：4 个头，d_h = 48，d_c = 64，d_c' = 96，d_h^R = 16；每词元每层 80 个数；并与同样方式训练的 MHA、GQA、"
        "MQA 模型对比",
    ),
    "mla.pvh.balance.what": ("expert balancing", "专家均衡"),
    "mla.pvh.balance.paper": (
        "sigmoid affinities, top-8 of 256 routed experts + 1 shared; γ = 0.001, then 0 for the last 500B tokens; "
        "a sequence-wise loss with α = 0.0001; no token dropped",
        "sigmoid 亲和度，256 个路由专家中选 8 个 + 1 个共享专家；γ = 0.001，最后 500B 词元改为 0；另有 α = 0.0001 "
        "的序列级损失；不丢弃任何词元",
    ),
    "mla.pvh.balance.here": (
        "softmax router, top-1 of 6 routed experts + 1 shared, capacity factor 1.25; γ = 0.001 throughout, no "
        "balance loss; against switch with α = 0.01",
        "softmax 路由器，6 个路由专家中选 1 个 + 1 个共享专家，容量因子 1.25；γ 始终为 0.001，没有均衡损失；"
        "与 α = 0.01 的 switch 对比",
    ),
    "mla.pvh.mtp.what": ("multi-token prediction", "多词元预测"),
    "mla.pvh.mtp.paper": (
        "depth 1; λ = 0.3 for the first 10T tokens, then 0.1; acceptance 85–90 %, 1.8× tokens per second",
        "深度 1；前 10T 词元 λ = 0.3，之后 0.1；接受率 85–90%，每秒词元数 1.8 倍",
    ),
    "mla.pvh.mtp.here": (
        "depth 1 on our GQA llama decoder; λ = 0.3, then 0.1 at the same fraction of training; acceptance and tokens "
        "per forward measured on held-out prompts",
        "在我们的 GQA llama 解码器上深度为 1；λ = 0.3，在训练的相同比例处改为 0.1；接受率和每次前向词元数在留出"
        "提示上测得",
    ),
    "mla.pvh.departure.latent": (
        "Our latent is small for its heads (d_c = 4/3·d_h, not 4·d_h), so our MLA caches less than MQA; DeepSeek's "
        "proportions put it between GQA with 2 and 3 groups.",
        "我们的潜在向量相对于头来说较小（d_c = 4/3·d_h，而非 4·d_h），所以我们的 MLA 比 MQA 缓存得还少；"
        "按 DeepSeek 的比例，它介于 2 组和 3 组的 GQA 之间。",
    ),
    "mla.pvh.departure.scaling": (
        "No extra scaling factors at the width bottlenecks (DeepSeek-V2 and V3 use them); the RMSNorm after the "
        "compressed latents is kept.",
        "没有在宽度瓶颈处乘额外的缩放因子（DeepSeek-V2 和 V3 有）；保留了压缩潜在向量之后的 RMSNorm。",
    ),
    "mla.pvh.departure.router": (
        "DeepSeek-V3 scores experts with a sigmoid and normalises the chosen ones; ours is Switch's softmax with "
        "top-1, so the bias is added to probabilities that sum to 1, and tokens past an expert's capacity are "
        "dropped.",
        "DeepSeek-V3 用 sigmoid 给专家打分，并对选中的专家做归一化；我们的是 Switch 的 softmax、top-1，"
        "所以偏置加在总和为 1 的概率上，超出专家容量的词元会被丢弃。",
    ),
    "mla.pvh.departure.mtp": (
        "Our MTP main model is a dense LLaMA decoder with GQA, not V3's MoE with MLA; our speculative loop re-runs "
        "the whole sequence at each forward (no cache), so it counts forwards, not seconds.",
        "我们的 MTP 主模型是带 GQA 的稠密 LLaMA 解码器，而不是 V3 那样带 MLA 的 MoE；我们的推测解码循环每次前向都"
        "重新计算整个序列（不用缓存），所以统计的是前向次数而不是耗时。",
    ),
    "mla.explain": (
        "**What DeepSeek-V3 changed.** MLA (2405.04434) shrinks the KV cache below GQA's without sharing heads: it "
        "stores a low-rank latent and makes every head's keys and values from it, with a small rotary key kept apart "
        "so that the up-projections can be absorbed at inference. Auxiliary-loss-free balancing (2412.19437 §2.1.2) "
        "evens the expert load with a bias that only selects, so no balance loss pulls on the language model. MTP "
        "(§2.2) adds a module that predicts one more token while keeping the causal chain; it trains the model and "
        "can draft for speculative decoding (§5.4.3). **What you see here.** Our four attentions reach similar bits "
        "per character while MLA caches the least; the absorbed path reproduces the naive one up to rounding and "
        "breaks once RoPE touches the content keys; the bias keeps the load as even as Switch's loss does, though "
        "in our small run at a higher held-out loss (the metrics in section 2); accepted MTP drafts cut the "
        "number of forwards without changing the text. **Try** a line of Python or arithmetic in the text: the "
        "experts of both MoE models change, and so does the share of drafts the main model accepts.",
        "**DeepSeek-V3 改变了什么。** MLA（2405.04434）不靠共享头，就把 KV 缓存压到比 GQA 还小：它存一个低秩潜在"
        "向量，每个头的键和值都由它生成，另把一个很小的旋转键单独放着，使上投影在推理时可以被吸收。无辅助损失的"
        "负载均衡（2412.19437 §2.1.2）用只参与选择的偏置来平衡专家负载，没有均衡损失牵动语言模型。MTP（§2.2）"
        "增加一个多预测一个词元、同时保持因果链的模块；它帮助训练，也能为推测解码起草（§5.4.3）。**这里看到的。**"
        "我们的四种注意力每字符比特数相近，而 MLA 缓存最少；吸收路径在舍入误差内复现朴素路径，一旦 RoPE 作用到"
        "内容键上就失效；偏置让负载与 Switch 的损失一样均匀，但在我们的小规模实验中留出损失更高"
        "（见第 2 节的指标）；被接受的 MTP 草稿减少了前向次数而不改变文本。**试一试**在文本中输入一行 "
        "Python 代码或算式：两个 MoE 模型的专家会变，主模型接受草稿的比例也会变。",
    ),
    # errors
    # interventions on held-out text (app/mla/knockout.py)
    "mla.ko.title": ("Knock out a part of the MLA model", "敲除 MLA 模型的一部分"),
    "mla.ko.caption": (
        "Run our MLA decoder on held-out windows of {T} tokens (plays it never trained on) with one part switched "
        "off, and compare with the plain run.",
        "在留出文本（模型从未训练过的剧本）的 {T} 词元窗口上运行我们的 MLA 解码器，关掉其中一部分，再与原始运行比较。",
    ),
    "mla.ko.read": (
        "Measured: block 0's MLP zeroed costs about +2.2 bits per character; a whole block's attention at most "
        "about +0.2; any single head at most +0.05.",
        "测得：块 0 的 MLP 置零后每字符比特约 +2.2；整块注意力最多约 +0.2；任一单个头最多 +0.05。",
    ),
    "mla.fewer.title": ("A smaller latent than trained", "比训练时更小的潜向量"),
    "mla.fewer.caption": (
        "Each layer caches a latent c_KV of d_c = {K} numbers per token, plus the shared rotary key of {R}. Keep only "
        "r of the {K}: in each layer the r dimensions of largest variance on these held-out windows of {T} tokens; "
        "each other dimension is set to its mean over the same windows (one constant, nothing stored per token) "
        "where the keys and values are made from the latent — what a cache storing r numbers would give back. A "
        "dimension filled with its mean is off by exactly its variance (in squared error), so the largest variances "
        "are the ones to keep. The weights are unchanged.",
        "每层为每个词元缓存 d_c = {K} 维的潜向量 c_KV，外加 {R} 维的共享旋转键。这里只保留其中 r 维：每层取在这些 "
        "{T} 词元留出窗口上方差最大的 r 维；其余各维在由潜向量生成键和值之处换成它在同样窗口上的均值（一个常数，"
        "无需逐词元存储）——相当于只存 r 个数的缓存所能给出的。以均值填充的维度，平方误差恰为其方差，所以应保留"
        "方差最大的维度。权重不变。",
    ),
    "mla.fewer.kept": ("Latent dimensions kept r", "保留的潜向量维数 r"),
    "mla.fewer.kept.help": (
        "{K} is the trained width (the plain model); 0 keeps none: every token's latent is then the mean, all values "
        "are alike, and attention writes the same vector at every position.",
        "{K} 是训练时的宽度（即原始模型）；0 表示一维都不留：每个词元的潜向量都成了均值，所有值都相同，"
        "注意力在每个位置写入同一个向量。",
    ),
    "mla.fewer.m.bytes": ("Cache per token, all layers", "每词元缓存（全部层）"),
    "mla.fewer.m.saved": ("{saved} saved of {full}", "比 {full} 省 {saved}"),
    "mla.fewer.m.bytes.help": (
        "{L} layers × (r + {R}) float32 numbers.",
        "{L} 层 ×（r + {R}）个 float32 数。",
    ),
    "mla.fewer.at": ("r = {r}", "r = {r}"),
    "mla.fewer.trained": ("trained, d_c = {K}", "训练时 d_c = {K}"),
    "mla.fewer.x": ("cache per token (bytes)", "每词元缓存（字节）"),
    "mla.fewer.y": ("held-out bits per character", "留出文本每字符比特"),
    "mla.fewer.read": (
        "Measured against all {K}: keeping 32 costs +0.07 bits per character, 16 about +0.2, none about +0.5; the "
        "first 32 in index order cost +0.16, so variance picks well. Filling with 0 instead gives about the same "
        "(+0.08, +0.22, +0.48). This cuts a latent trained at {K} after training; no narrower latent is trained "
        "here, so what a cache trained at r would lose is not measured.",
        "相对保留全部 {K} 维测得：保留 32 维每字符比特 +0.07，16 维约 +0.2，一维不留约 +0.5；按编号取前 32 维要 "
        "+0.16，可见按方差挑选是对的。改用 0 填充结果相近（+0.08、+0.22、+0.48）。这里是在训练后截短按 {K} 维"
        "训练的潜向量；本站没有训练更窄的潜向量，按 r 维训练的缓存会损失多少并未测量。",
    ),
    "mla.error.kept": ("Choose a latent width among {options}.", "请在 {options} 中选择潜向量维数。"),
    "mla.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "mla.error.chars": (
        "The text has {n} characters; at most {max} are allowed.",
        "文本有 {n} 个字符；最多允许 {max} 个。",
    ),
    "mla.error.characters": (
        "The text holds a control character ({code}) that no model here was trained on; remove it.",
        "文本中有一个控制字符（{code}），这里的模型都没有在这类字符上训练过；请删除它。",
    ),
    "mla.error.tokens": (
        "In the tokenizer of {name} the text is {n} tokens long; {max} fit its context. Shorten the text.",
        "按 {name} 的分词器，这段文本有 {n} 个词元；它的上下文只能容纳 {max} 个。请缩短文本。",
    ),
    "mla.error.choice": ("That choice is out of range.", "该选项超出范围。"),
    "mla.error.n": ("Choose between 1 and {max} new tokens.", "请选择 1 到 {max} 个新词元。"),
    "mla.error.room": (
        "The text is {n} tokens; with {new} new ones that is more than the {max} of the context. Shorten the text or "
        "ask for fewer tokens.",
        "文本有 {n} 个词元；再加 {new} 个新词元就超过了上下文的 {max} 个。请缩短文本或减少新词元数。",
    ),
}
