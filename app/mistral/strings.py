"""English and 简体中文 text of the Mistral page."""

STRINGS = {
    "mistral.try.do": (
        "In section 2, leave the position on the last token and read the four “farthest” numbers, one per layer.",
        "在第 2 节，把位置留在最后一个词元上，读出四个“最远”数字，每层一个。",
    ),
    "mistral.try.see": (
        "31, 62, 93, 124: after each layer the output depends on inputs up to 31 = W − 1 more tokens back, and on "
        "nothing beyond that bound (the gradient is exactly 0).",
        "31、62、93、124：每多一层，输出所依赖的输入就往前多延伸 31 = W − 1 个词元，"
        "而界限之外的输入毫无影响（梯度恰好为 0）。",
    ),
    "mistral.try.why": (
        "Each layer reads only a band of W keys, but the hidden states it reads already summarise a band each, so "
        "the reach grows by W − 1 per layer. Mistral 7B's paper (§2) lets position i read positions i − W to i, W "
        "further back per layer, and so counts k × W: 32 × 4,096 = 131,072, about 131K tokens at the last layer. "
        "This page's band of W keys includes the query's own, so it counts W − 1 per layer: 32 × 4,095 = 131,040 "
        "for the same model, one token per layer fewer.",
        "每一层只读一条 W 个键的带，但它读到的隐藏状态各自已经汇总了一条带，所以感受范围每层增加 W − 1。"
        "Mistral 7B 论文（§2）让位置 i 读取位置 i − W 到 i，每层向前延伸 W，因此算作 k × W：32 × 4096 = 131,072，"
        "即最后一层约 13.1 万个词元。本页的 W 个键包含查询自身，所以每层算 W − 1：同一模型为 32 × 4095 = 131,040，"
        "每层少一个词元。",
    ),
    "mistral.intro": (
        "Mistral 7B's block is LLaMA's (RMSNorm, SwiGLU, RoPE) with grouped-query attention added, as in Llama 2 "
        "70B, and a sliding window that limits what each query sees: a band of the last **W** keys instead of every "
        "earlier one. Below, a small model trained here with "
        "W = 32 shows the band, how far it reaches through the layers, the rolling buffer it allows while writing, "
        "and a long prompt fed in chunks of W.",
        "Mistral 7B 的模块就是 LLaMA 的模块（RMSNorm、SwiGLU、RoPE），加上与 Llama 2 70B 一样的分组查询注意力，"
        "再加一个滑动窗口，限制每个查询能看到的范围：只看最近 **W** 个键组成的一条带，而不是之前的全部键。"
        "下面用一个在本站训练、W = 32 的小模型展示："
        "这条带本身、它经过多层后能延伸多远、生成时它所允许的滚动缓冲缓存，以及按 W 分块预填充长提示。",
    ),
    "mistral.text": ("Text", "文本"),
    "mistral.text.help": (
        "At most {chars} characters and {tokens} tokens (the training context).",
        "最多 {chars} 个字符、{tokens} 个词元（训练时的上下文长度）。",
    ),
    # the band
    "mistral.band.title": ("1 · The band mask", "1 · 带状掩码"),
    "mistral.band.caption": (
        "Query p may attend to keys p − W + 1 … p: W keys, itself included. All {L} layers use the same band "
        "(W = {W} here). Drag the slider under the map to draw the band for another width w: its edge moves, and "
        "the causal keys it cuts off turn grey. The model itself always runs with W = {W}, so its real pattern is "
        "exactly 0 left of the trained band's dotted edge.",
        "位置 p 的查询只能关注键 p − W + 1 … p：共 W 个键，包括它自己。全部 {L} 层使用同一条带（这里 W = {W}）。"
        "拖动热图下方的滑块，按另一个宽度 w 画出这条带：带的边缘随之移动，被它切掉的因果键变成灰色。"
        "模型本身始终以 W = {W} 运行，所以它的真实注意力模式在训练带的虚线边缘左侧恰好为 0。",
    ),
    "mistral.window.prefix": ("window w = ", "窗口 w = "),
    "mistral.band.readout": (
        "last query: {keys} keys<br>in band: {pairs} pairs<br>({share} of causal)<br>this head's weight<br>"
        "outside: {outside}",
        "末位查询：{keys} 个键<br>带内：{pairs} 对<br>（占因果的 {share}）<br>该头带外权重：<br>{outside}",
    ),
    "mistral.band.readout.help": (
        "In the map's upper right, for the window drawn: the keys the last query sees, min(w, tokens), where a full "
        "causal mask would show it every token; the query–key pairs the band allows, against the {causal} pairs "
        "of a full causal mask (attention costs grow with this count: T·w for the band, T²/2 without it); and this "
        "head's attention weight that falls outside the band, averaged over queries: zero from w = {W} up, since "
        "below it the band drawn is narrower than the one the model uses.",
        "热图右上角是所绘窗口的读数：最后一个查询看到的键数 min(w, 词元数)，完整因果掩码下它能看到全部词元；"
        "带所允许的查询–键对数，与完整因果掩码的 {causal} 对相比（注意力的计算量随这个数增长：有带时约 T·w，"
        "没有带时约 T²/2）；以及该头落在带外的注意力权重，按查询取平均：w ≥ {W} 时为 0，"
        "小于它时，所绘的带比模型实际用的窄。",
    ),
    "mistral.m.outside_trained": ("Largest weight outside W = {W}", "W = {W} 带外的最大权重"),
    "mistral.m.outside_trained.help": (
        "The largest weight any query puts outside the trained band, over all {L} layers and {H} heads: the mask "
        "removes those keys before the softmax, so it is exactly 0.",
        "所有 {L} 层、{H} 个头中，任何查询放在训练带之外的最大权重：掩码在 softmax 之前就去掉了这些键，所以恰好为 0。",
    ),
    "mistral.band.pattern": (
        "Attention pattern, {lh}",
        "注意力模式：{lh}",
    ),
    "mistral.band.cut": ("causal keys outside the band drawn", "所绘带外的因果键"),
    "mistral.edge": ("edge of the band drawn (w)", "所绘带的边缘（w）"),
    "mistral.edge.trained": ("edge of the trained band (W = {W})", "训练带的边缘（W = {W}）"),
    # reach through depth
    "mistral.reach.title": ("2 · Reach through depth, measured", "2 · 跨层的感受范围（实测）"),
    "mistral.reach.caption": (
        "One layer moves information at most W − 1 = {W_1} positions: the state at p after layer l can only depend "
        "on inputs back to p − (l + 1)(W − 1). The map measures it: how strongly each input embedding moves the "
        "state at the chosen position after each layer (the norm of the gradient). After all {L} layers the bound "
        "is {reach} positions, far more than one window of {W}.",
        "每一层最多把信息传递 W − 1 = {W_1} 个位置：层 l 之后位置 p 的状态，只可能依赖位置 p − (l + 1)(W − 1) "
        "及之后的输入。下图实测了这一点：每个输入嵌入对所选位置在每层之后的状态影响有多大（梯度的范数）。"
        "经过全部 {L} 层，界限是 {reach} 个位置，远多于一个窗口的 {W}。",
    ),
    "mistral.position": ("Position whose state is traced", "追踪其状态的位置"),
    "mistral.position.help": (
        "The gradients are taken with respect to this position's residual stream after each layer.",
        "对这个位置在每层之后的残差流求梯度。",
    ),
    "mistral.reach.spinner": ("Measuring gradients …", "正在计算梯度……"),
    "mistral.m.farthest": ("Layer {layer}: farthest / bound", "层 {layer}：最远 / 界限"),
    "mistral.m.farthest.help": (
        "How many positions back the farthest input with a non-zero influence sits, against the bound "
        "(layer + 1)(W − 1) = ({layer} + 1)·({W} − 1) = {bound}. Near the start of the text the text itself is the "
        "limit.",
        "影响不为零的最远输入在多少个位置之前，与界限 (层 + 1)(W − 1) = ({layer} + 1)·({W} − 1) = {bound} 相比。"
        "在文本开头附近，文本本身的长度就是限制。",
    ),
    "mistral.m.beyond": ("Beyond the bound", "界限之外"),
    "mistral.m.beyond.help": (
        "The largest gradient norm of any input farther back than its layer's bound: exactly 0, since no chain "
        "of bands connects them.",
        "超出该层界限的任何输入的最大梯度范数：恰好为 0，因为没有一串带能把它们连起来。",
    ),
    "mistral.reach.map": (
        "Influence of every input (across) on the state at position {position} ({token}) after each layer (down), "
        "as log₁₀ of the gradient norm ‖∂‖x_l[p]‖ / ∂x₀[j]‖ (how much the embedding at j moves the size of the "
        "state); blank = exactly 0. The red bar marks each layer's bound.",
        "每个输入（横向）对位置 {position}（{token}）在每层之后状态（纵向）的影响，"
        "取梯度范数 ‖∂‖x_l[p]‖ / ∂x₀[j]‖ 的 log₁₀（位置 j 的嵌入对该状态大小的影响）；空白表示恰好为 0。"
        "红色竖线标出每层的界限。",
    ),
    "mistral.reach.after": ("after layer {layer}", "层 {layer} 之后"),
    "mistral.reach.log": ("log₁₀ influence", "log₁₀ 影响"),
    "mistral.reach.input": ("input position", "输入位置"),
    "mistral.reach.bound": ("bound (l + 1)(W − 1)", "界限 (l + 1)(W − 1)"),
    # rolling buffer
    "mistral.roll.title": ("3 · The rolling buffer cache", "3 · 滚动缓冲缓存"),
    "mistral.roll.caption": (
        "No query looks further back than W = {W} keys, so the cache only needs W slots per layer: position i is "
        "written to slot i mod W, over position i − W, which no later query can see. Press generate: the model "
        "writes greedily with the rolling buffer, then once more with a full cache for comparison.",
        "任何查询都不会看得比 W = {W} 个键更远，所以每层缓存只需要 W 个槽位：位置 i 写入槽位 i mod W，"
        "覆盖位置 i − W——之后再没有查询能看到它。点击生成：模型先用滚动缓冲做贪心生成，再用完整缓存生成一次作对比。",
    ),
    "mistral.prompt": ("Prompt", "提示"),
    "mistral.n": ("New tokens", "新词元数"),
    "mistral.n.help": ("Greedy decoding, one token at a time.", "贪心解码，每次一个词元。"),
    "mistral.generate": ("Generate", "生成"),
    "mistral.roll.press": (
        "Press generate to decode with the rolling buffer.",
        "点击“生成”，用滚动缓冲进行解码。",
    ),
    "mistral.roll.spinner": ("Decoding …", "正在解码……"),
    "mistral.roll.text": ("Prompt and continuation", "提示与续写"),
    "mistral.m.generated": ("Tokens generated", "生成的词元"),
    "mistral.m.generated.help": (
        "After a prompt of {P} tokens (with ⟨eot⟩), pre-filled in chunks of W.",
        "接在 {P} 个词元（含 ⟨eot⟩）的提示之后，提示按 W 分块预填充。",
    ),
    "mistral.m.tps": ("Tokens per second", "每秒词元数"),
    "mistral.m.memory": ("Cache at the end: rolling / full", "结束时缓存：滚动 / 完整"),
    "mistral.m.memory.help": (
        "Keys and values of every layer, measured from the tensors; the full cache is {ratio:.1f}× larger here and "
        "keeps growing with every token.",
        "各层键和值的大小，直接按张量测得；这里完整缓存是滚动缓冲的 {ratio:.1f} 倍，并且每多一个词元就继续增长。",
    ),
    "mistral.m.same": ("Same tokens with a full cache", "完整缓存生成的词元是否相同"),
    "mistral.m.same.help": (
        "The full cache holds every earlier key, but the band hides all but the last W, so greedy decoding picks "
        "the same tokens (up to float rounding).",
        "完整缓存保留了之前所有的键，但带状掩码只让最近 W 个可见，所以贪心解码选出相同的词元（浮点舍入误差以内）。",
    ),
    "mistral.yes": ("yes", "是"),
    "mistral.no": ("no", "否"),
    "mistral.roll.slots": ("The W slots after a step", "某一步之后的 W 个槽位"),
    "mistral.step": ("Step (tokens generated so far)", "步（已生成的词元数）"),
    "mistral.step.short": ("step", "步"),
    "mistral.m.filled": ("Slots filled", "已占用的槽位"),
    "mistral.m.filled.help": (
        "The buffer fills during the first W positions, then stays full.",
        "缓冲在前 W 个位置中被逐渐填满，之后一直是满的。",
    ),
    "mistral.m.held": ("Positions held", "保存的位置"),
    "mistral.m.held.help": (
        "Once full, the slots hold exactly the last W = {W} positions: all a new query may see.",
        "填满之后，槽位恰好保存最近的 W = {W} 个位置：这正是新查询能看到的全部。",
    ),
    "mistral.m.overwritten": ("Positions overwritten", "被覆盖的位置"),
    "mistral.m.overwritten.help": (
        "Positions that fell out of the window (i − {W}) and whose slot now holds a newer one.",
        "已滑出窗口（i − {W}）、其槽位已被更新位置占用的位置数。",
    ),
    "mistral.slot": ("slot", "槽位"),
    "mistral.empty": ("empty", "空"),
    "mistral.position.short": ("position", "位置"),
    "mistral.roll.map": (
        "Which absolute position each slot (down) holds after each step (across), layer 0 (every layer alike); "
        "the frame marks the step chosen. Each slot's colour jumps by W when it wraps.",
        "每一步（横向）之后各槽位（纵向）保存的绝对位置，层 0（各层相同）；方框标出所选的步。槽位回绕时颜色跳过 W。",
    ),
    "mistral.roll.memory": (
        "Cache memory against the cached positions: flat for the rolling buffer, growing for a full cache.",
        "缓存大小随已缓存位置数的变化：滚动缓冲保持不变，完整缓存持续增长。",
    ),
    "mistral.cache.rolling": ("rolling buffer", "滚动缓冲"),
    "mistral.cache.full": ("full cache", "完整缓存"),
    "mistral.cached_positions": ("positions seen", "已处理的位置数"),
    "mistral.kib": ("KiB (keys and values, all layers)", "KiB（所有层的键和值）"),
    # pre-fill
    "mistral.prefill.title": ("4 · Pre-fill in chunks of W", "4 · 按 W 分块预填充"),
    "mistral.prefill.caption": (
        "A long prompt is known in advance, so it can fill the cache in chunks. With chunks of W = {W}, each chunk "
        "attends to the last W − 1 positions read back from the rolling buffer and, causally, to itself. The text "
        "above is fed this way; its last logits are compared with one forward pass over the whole text.",
        "长提示事先就全部已知，因此可以分块填入缓存。块大小取 W = {W} 时，每个块关注从滚动缓冲读回的最近 W − 1 个位置，"
        "并按因果顺序关注块内自身。上面的文本就按这种方式输入；最后一个位置的 logits 与整段文本一次前向的结果相比较。",
    ),
    "mistral.chunk": ("Chunk", "块"),
    "mistral.m.chunks": ("Chunks", "块数"),
    "mistral.m.chunks.help": ("{T} tokens in chunks of W = {W}.", "{T} 个词元，按 W = {W} 分块。"),
    "mistral.m.chunk_keys": ("Keys: cached + own", "键：缓存中的 + 块自身的"),
    "mistral.m.chunk_keys.help": (
        "Columns of this chunk's mask: positions read from the cache (at most W − 1 = {W} − 1), then its own.",
        "该块掩码的列：从缓存读取的位置（最多 W − 1 = {W} − 1 个），然后是块自身的位置。",
    ),
    "mistral.m.prefill_diff": ("Max |chunked − full| (last logits)", "最大 |分块 − 整段|（最后的 logits）"),
    "mistral.m.prefill_diff.help": (
        "Float rounding only: the logits themselves reach {scale:.1f}.",
        "只有浮点舍入误差：logits 本身最大约为 {scale:.1f}。",
    ),
    "mistral.prefill.caption.real": (
        "On {name} the mask drawn is a local layer's (layer 0); its global layers ({globals}) keep every position "
        "in caches that grow, so each chunk reads every earlier position there. The comparison covers all layers.",
        "在 {name} 上，所画的掩码属于局部层（层 0）；它的全局层（{globals}）把每个位置都保存在增长的缓存中，"
        "所以每个块在那里读取之前的全部位置。比较覆盖所有层。",
    ),
    "mistral.prefill.spinner": ("Pre-filling in chunks …", "正在分块预填充……"),
    "mistral.prefill.map": (
        "The mask chunk {c} uses (queries at positions {start}–{end}); left of the red line: keys from the cache.",
        "块 {c} 使用的掩码（查询位于位置 {start}–{end}）；红线左侧：来自缓存的键。",
    ),
    # card
    "mistral.card.title": ("The checkpoint", "检查点"),
    "mistral.card.params": ("Parameters", "参数量"),
    "mistral.card.val_bpc": ("Validation bits per character", "验证集每字符比特数"),
    "mistral.card.llama_bpc": ("llama, same measure", "llama，同一度量"),
    "mistral.card.llama_bpc.help": (
        "The llama checkpoint: the same block with a full causal mask instead of the band, on the same data.",
        "llama 检查点：同样的模块，但用完整的因果掩码代替带状掩码，数据相同。",
    ),
    "mistral.card.versus": (
        "Not a like-for-like comparison: mistral trained on contexts of {ctx} tokens (batches of {batch}), twice "
        "llama's {llama_ctx} (batches of {llama_batch}), and took {steps} steps in its {budget:.0f} s budget against "
        "llama's {llama_steps} in {llama_budget:.0f} s (from the two cards).",
        "这不是同条件的比较：mistral 训练时的上下文为 {ctx} 个词元（每批 {batch} 条），是 llama 的 {llama_ctx} 个"
        "（每批 {llama_batch} 条）的两倍；它在 {budget:.0f} 秒预算内走了 {steps} 步，llama 在 {llama_budget:.0f} 秒内"
        "走了 {llama_steps} 步（数据取自两张模型卡）。",
    ),
    # in the paper vs here
    "mistral.pvh.shape": ("shape", "形状"),
    "mistral.pvh.shape.paper": (
        "dim 4096, 32 layers, head_dim 128, hidden_dim 14336, 32 heads, 8 KV heads, vocabulary 32000 (Table 1)",
        "dim 4096，32 层，head_dim 128，hidden_dim 14336，32 个头，8 个键/值头，词表 32000（表 1）",
    ),
    "mistral.pvh.shape.here": (
        "dim {dim}, {L} layers, head_dim {D}, hidden_dim {F}, {H} heads, {G} KV heads, vocabulary {V}",
        "dim {dim}，{L} 层，head_dim {D}，hidden_dim {F}，{H} 个头，{G} 个键/值头，词表 {V}",
    ),
    "mistral.pvh.window": ("window, context", "窗口、上下文"),
    "mistral.pvh.window.paper": ("window_size 4096, context_len 8192", "window_size 4096，context_len 8192"),
    "mistral.pvh.window.here": ("W = {W}, context {ctx}", "W = {W}，上下文 {ctx}"),
    "mistral.pvh.result": ("headline result", "主要结果"),
    "mistral.pvh.result.paper": (
        "beats Llama 2 13B on all evaluated benchmarks, and Llama 1 34B on reasoning, mathematics and code",
        "在所有评测基准上超过 Llama 2 13B，在推理、数学和代码上超过 Llama 1 34B",
    ),
    "mistral.pvh.result.here": (
        "{bpc:.4f} validation bits per character against {llama:.4f} for our llama, trained on half the context",
        "验证集每字符比特数 {bpc:.4f}，我们的 llama（上下文只有一半）为 {llama:.4f}",
    ),
    "mistral.card.rolling": ("Rolling cache vs full forward", "滚动缓存与整段前向之差"),
    "mistral.card.caption": (
        "Data: {data}. Wall time {minutes:.0f} min. Command: `{command}`.",
        "数据：{data}。总耗时 {minutes:.0f} 分钟。命令：`{command}`。",
    ),
    # explanation
    "mistral.moe_link": ("Mixtral's experts: the MoE page", "Mixtral 的专家：MoE 页面"),
    "mistral.explain": (
        "**What Mistral 7B changed.** Sliding-window attention: in each layer a token attends to the W tokens "
        "before it, not to all of them. Stacked layers pass information on, so the last of the paper's 32 layers "
        "with W = 4096 has a theoretical attention span of about 131K tokens (32 × 4096). Because no query looks "
        "further back than W, the KV cache can be a rolling buffer of W slots (position i in slot i mod W); the "
        "paper reports that on 32K-token sequences this cuts cache memory 8× without hurting quality. A long "
        "prompt is pre-filled in chunks of W.  \n"
        "**What the window trades.** Each layer sees only W tokens directly; longer-range information has to be "
        "relayed through layers, weakening with every hop (section 2). In return the cache stays W rows per layer "
        "however long the text grows, and attention costs grow linearly with the length instead of "
        "quadratically.  \n"
        "**Where ours departs.** W = 32 over a training context of 256 tokens, 4 layers (a reach of 4 × 31 = 124), "
        "width 192 with 4 query and 2 key/value heads, about 2M parameters, trained on Shakespeare with a 2,048-id "
        "BPE; the paper's model has W = 4096, 32 layers and 7B parameters.  \n"
        "**Mixtral 8x7B** (arXiv 2401.04088) builds on Mistral 7B with a full 32K-token context instead of the "
        "window, and replaces each feed-forward block with 8 experts, of which a router picks 2 per token: see the "
        "MoE page.  \n"
        "**Try:** the slider under the band's map below 32 (weight appears outside the drawn band) and above it "
        "(none); the position slider near the end, to see each layer reach 31 positions further; generate 64 tokens "
        "and move the step slider back to the start, to see the slots fill and then wrap.  \n"
        "Paper: Jiang et al., *Mistral 7B*, arXiv 2310.06825.",
        "**Mistral 7B 改变了什么。** 滑动窗口注意力：每一层中，一个词元只关注它之前的 W 个词元，而不是全部。"
        "层层堆叠会把信息接力传递下去，所以在论文的 32 层、W = 4096 的设置下，最后一层的理论注意力跨度约为 131K 个词元"
        "（32 × 4096）。由于没有查询会看得比 W 更远，KV 缓存可以是一个 W 个槽位的滚动缓冲（位置 i 存在槽位 i mod W）；"
        "论文报告，在 32K 词元的序列上，这使缓存内存减少为八分之一，而不影响模型质量。长提示按 W 分块预填充。  \n"
        "**窗口换来了什么，又付出了什么。** 每一层只能直接看到 W 个词元；更远的信息必须经多层接力传递，每传一跳都会减弱"
        "（第 2 部分）。作为回报，无论文本多长，每层缓存都只有 W 行，注意力的计算量随长度线性增长，而不是平方增长。  \n"
        "**我们的模型与论文的不同。** W = 32、训练上下文 256 个词元、4 层（感受范围 4 × 31 = 124），宽度 192，"
        "4 个查询头和 2 个键/值头，约 2M 参数，用 2,048 个词元的 BPE 在莎士比亚作品上训练；"
        "论文的模型是 W = 4096、32 层、7B 参数。  \n"
        "**Mixtral 8x7B**（arXiv 2401.04088）在 Mistral 7B 的基础上改用完整的 32K 词元上下文（不再用窗口），"
        "并把每个前馈块换成 8 个专家，由路由器为每个词元选出其中 2 个：见 MoE 页面。  \n"
        "**试一试：** 把带状热图下方的滑块调到 32 以下（所绘带外出现权重）和 32 以上（没有）；把位置滑块放在末尾附近，"
        "看每多一层感受范围就多 31 个位置；生成 64 个词元，再把步滑块拖回开头，看槽位先被填满、然后回绕。  \n"
        "论文：Jiang 等，*Mistral 7B*，arXiv 2310.06825。",
    ),
    # errors
    # interventions on held-out text (app/mistral/knockout.py)
    "mistral.ko.title": ("5 · Knock out a part of the model", "5 · 敲除模型的一部分"),
    "mistral.ko.caption": (
        "Run the model on held-out windows of {T} tokens (plays it never trained on) with one part switched off, and "
        "compare with the plain run.",
        "在留出文本（模型从未训练过的剧本）的 {T} 词元窗口上运行模型，关掉其中一部分，再与原始运行比较。",
    ),
    "mistral.ko.read": (
        "Measured: block 0's MLP zeroed costs about +2.3 bits per character; a whole block's attention at most "
        "about +0.25; any single head at most +0.05.",
        "测得：块 0 的 MLP 置零后每字符比特约 +2.3；整块注意力最多约 +0.25；任一单个头最多 +0.05。",
    ),
    "mistral.narrow.title": ("6 · A narrower window than trained", "6 · 比训练时更窄的窗口"),
    "mistral.narrow.caption": (
        "The model was trained with a band of W = {W} keys. Here every layer's band is cut to W' keys at inference "
        "(the scores of keys further back are masked, the weights untouched), on the same held-out windows of {T} "
        "tokens.",
        "模型训练时的窗口是 W = {W} 个键。这里在推理时把每一层的窗口截成 W' 个键（更远的键的分数被屏蔽，权重不变），"
        "在同样的 {T} 词元留出窗口上测量。",
    ),
    "mistral.narrow.window": ("Window at inference W'", "推理时的窗口 W'"),
    "mistral.narrow.window.help": (
        "Keys each query may attend to, itself included; {W} is the trained window (the plain model).",
        "每个查询可关注的键数（含自身）；{W} 是训练时的窗口（即原始模型）。",
    ),
    "mistral.narrow.at": ("W' = {w}", "W' = {w}"),
    "mistral.narrow.trained": ("trained, W = {W}", "训练时 W = {W}"),
    "mistral.narrow.x": ("window at inference W' (keys)", "推理时的窗口 W'（键数）"),
    "mistral.narrow.y": ("held-out bits per character", "留出文本每字符比特"),
    "mistral.narrow.read": (
        "The positions before W' see every key either way and do not change; past them, each query loses the keys it "
        "was trained to use. Measured: W' = 16 costs +0.02 bits per character, W' = 4 about +0.2, W' = 1 (each token "
        "alone) about +0.6 against W = {W}.",
        "W' 之前的位置无论如何都能看到所有键，不受影响；之后的每个查询都失去了训练时会用到的键。测得：相对 W = {W}，"
        "W' = 16 每字符比特 +0.02，W' = 4 约 +0.2，W' = 1（每个词元只看自己）约 +0.6。",
    ),
    "mistral.error.narrower": ("Choose a window among {options}.", "请在 {options} 中选择一个窗口。"),
    "mistral.error.empty": ("Type some text first.", "请先输入一些文本。"),
    "mistral.error.chars": (
        "The text has {n} characters; at most {max} are accepted.",
        "文本有 {n} 个字符；最多接受 {max} 个。",
    ),
    "mistral.error.tokens": (
        "The text makes {n} tokens (with ⟨eot⟩); the model's context holds {max}. Shorten it.",
        "该文本共 {n} 个词元（含 ⟨eot⟩）；模型的上下文最多 {max} 个。请缩短文本。",
    ),
    "mistral.error.window": ("The window must be between {lo} and {hi}.", "窗口必须在 {lo} 到 {hi} 之间。"),
    "mistral.error.position": ("The position must be between 0 and {max}.", "位置必须在 0 到 {max} 之间。"),
    "mistral.error.n": ("Generate between 1 and {max} tokens.", "请生成 1 到 {max} 个词元。"),
    "mistral.error.room": (
        "The prompt ({n} tokens) and {new} new tokens exceed the {max} positions the model was trained on; "
        "shorten the prompt or generate fewer.",
        "提示（{n} 个词元）加上 {new} 个新词元超出了模型训练时的 {max} 个位置；请缩短提示或减少生成数量。",
    ),
    # a real Gemma 3 picked (every number from its config)
    "mistral.intro.real": (
        "Mistral 7B's sliding window limits each query to a band of the last **W** keys. {name} mixes that with "
        "full attention: most layers are *local* (a band of W keys), and every so often a *global* layer attends "
        "to every earlier token. Below, the band, its reach through the layers and the caches while it writes, all "
        "measured on {name}.",
        "Mistral 7B 的滑动窗口让每个查询只看最近 **W** 个键组成的一条带。{name} 把它与完整注意力混合："
        "大多数层是*局部*层（W 个键的带），每隔几层有一个*全局*层关注之前的全部词元。"
        "下面的带、它跨层的感受范围以及生成时的缓存，都在 {name} 上实测。",
    ),
    "mistral.real.intro": (
        "{name}: {L} layers, {n_local} local with W = {W} and {n_global} global (layers {globals}); {H} query heads "
        "sharing {G} key/value head(s). A text here may make at most {max} tokens.",
        "{name}：{L} 层，其中 {n_local} 个局部层（W = {W}）、{n_global} 个全局层（层 {globals}）；"
        "{H} 个查询头共享 {G} 个键/值头。这里的文本最多 {max} 个词元。",
    ),
    "mistral.try.real.do": (
        "Keep the text it opens with (longer than W = {W} tokens). In section 2, leave the position on the last "
        "token and read the “farthest” numbers of layers 0 and 1.",
        "保留默认文本（比 W = {W} 个词元更长）。在第 2 节，把位置留在最后一个词元上，读出层 0 和层 1 的“最远”数字。",
    ),
    "mistral.try.real.see": (
        "After layer 0 the farthest input that moves the last state sits exactly W − 1 = {W_1} positions back: "
        "the tokens before it are out of reach. Layer 1 adds another W − 1 and reaches the first token. Before "
        "layer {g} each local layer adds at most W − 1 (the bound reaches {reach}); from layer {g}, a global layer, "
        "the bound is the whole text.",
        "经过层 0 后，能影响最后一个状态的最远输入恰好在 W − 1 = {W_1} 个位置之前：更早的词元够不到。"
        "层 1 再延伸 W − 1，够到了第一个词元。层 {g} 之前，每个局部层最多多延伸 W − 1（界限达到 {reach}）；"
        "从层 {g}（全局层）起，界限就是整段文本。",
    ),
    "mistral.try.real.why": (
        "A global layer reads every earlier position directly, so once one has run, no input is out of reach: the "
        "local layers' window saves cache memory and compute, it no longer caps what the model can use.",
        "全局层直接读取之前的每个位置，所以只要经过一个全局层，就没有够不到的输入："
        "局部层的窗口节省的是缓存内存和计算，不再限制模型能用到什么。",
    ),
    "mistral.text.help.real": (
        "At most {chars} characters and {tokens} tokens (this page's cap for a real model). The text it opens with, "
        "Antony's speech from Julius Caesar, is longer than the window, so the local layers' band cuts it.",
        "最多 {chars} 个字符、{tokens} 个词元（本页对真实模型的上限）。默认文本是《尤利乌斯·恺撒》中安东尼的演说，"
        "比窗口更长，所以局部层的带会把它截断。",
    ),
    "mistral.error.tokens.real": (
        "The text makes {n} tokens; this page reads at most {max} with a real model. Shorten it.",
        "该文本共 {n} 个词元；本页对真实模型最多读取 {max} 个。请缩短文本。",
    ),
    "mistral.use_ours": ("Switch the page to our mistral", "把页面换成我们的 mistral"),
    "mistral.real.ko": (
        "Knock-outs are measured on held-out Shakespeare, text our mistral never trained on; {name} was pre-trained "
        "on a far larger corpus, so that loss would mean something else. Our mistral shows them.",
        "敲除实验在留出的莎士比亚文本上测量，那是我们的 mistral 从未训练过的文本；{name} 在大得多的语料上预训练过，"
        "同样的损失含义不同。我们的 mistral 能展示这些实验。",
    ),
    "mistral.real.narrow": (
        "The narrower-window sweep measures ours on held-out Shakespeare against the window it was trained with; "
        "{name} was pre-trained on other text, so that loss would not compare. Our mistral shows it.",
        "更窄窗口的扫描是在留出的莎士比亚文本上，把我们的模型与它训练时的窗口相比较；{name} 在其他文本上预训练，"
        "这个损失没有可比性。我们的 mistral 能展示它。",
    ),
    "mistral.layer.local": ("local layer, W = {W}", "局部层，W = {W}"),
    "mistral.layer.global": ("global layer: every earlier key", "全局层：之前的全部键"),
    "mistral.band.caption.real": (
        "In a local layer, query p attends to keys p − W + 1 … p (W = {W}, itself included); a global layer "
        "attends to every key up to p. Here layers {locals} are local ({n_local} of {L}) and layers {globals} "
        "global ({n_global}). Pick a layer: a global one's pattern fills the causal triangle. The slider under the "
        "map draws a band of another width w for comparison.",
        "在局部层中，位置 p 的查询关注键 p − W + 1 … p（W = {W}，包括它自己）；全局层关注直到 p 的全部键。"
        "这里层 {locals} 是局部层（{L} 层中的 {n_local} 个），层 {globals} 是全局层（{n_global} 个）。"
        "选一层看看：全局层的模式填满整个因果三角。热图下方的滑块可以画出另一宽度 w 的带作对比。",
    ),
    "mistral.band.short": (
        "This text is {T} tokens, not longer than W = {W}: every local band here still covers all earlier keys, so "
        "local and global layers see the same keys on it.",
        "这段文本有 {T} 个词元，不超过 W = {W}：这里每条局部带仍覆盖之前的全部键，所以在这段文本上局部层和全局层"
        "看到的键相同。",
    ),
    "mistral.edge.none": ("no trained band (global layer)", "没有训练带（全局层）"),
    "mistral.band.readout.help.real": (
        "In the map's upper right, for the window drawn: the keys the last query sees, min(w, tokens); the "
        "query–key pairs the band allows, against the {causal} pairs of a full causal mask; and this head's weight "
        "outside the band drawn, averaged over queries. In a local layer it is zero from w = {W} up; a global "
        "layer has no band, so any w shorter than the text cuts some of its weight.",
        "热图右上角是所绘窗口的读数：最后一个查询看到的键数 min(w, 词元数)；带所允许的查询–键对数，"
        "与完整因果掩码的 {causal} 对相比；以及该头落在所绘带外的注意力权重，按查询取平均。"
        "局部层中 w ≥ {W} 时它为 0；全局层没有带，所以任何短于文本的 w 都会切掉它的一部分权重。",
    ),
    "mistral.m.outside_local": ("Largest weight outside W = {W}, local layers", "局部层 W = {W} 带外的最大权重"),
    "mistral.m.outside_local.help": (
        "The largest weight any query of the {n_local} local layers ({H} heads each) puts outside its band: the "
        "mask removes those keys before the softmax, so it is exactly 0. Global layers have no band.",
        "{n_local} 个局部层（每层 {H} 个头）中，任何查询放在带外的最大权重：掩码在 softmax 之前就去掉了这些键，"
        "所以恰好为 0。全局层没有带。",
    ),
    "mistral.reach.caption.real": (
        "A local layer moves information at most W − 1 = {W_1} positions; a global layer reads every earlier one. "
        "Up to the first global layer (layer {g}) the bound adds W − 1 per local layer: {n} × {W_1} = {reach} "
        "before it. From layer {g} on, the state at p may depend on the whole text before p. The map measures it "
        "with gradients, as for ours.",
        "局部层最多把信息传递 W − 1 = {W_1} 个位置；全局层读取之前的每个位置。"
        "在第一个全局层（层 {g}）之前，每个局部层让界限增加 W − 1：之前共 {n} × {W_1} = {reach}。"
        "从层 {g} 起，位置 p 的状态可以依赖 p 之前的整段文本。下图与我们的模型一样用梯度实测。",
    ),
    "mistral.reach.all": ("all", "全部"),
    "mistral.m.farthest.help.local": (
        "How many positions back the farthest input with a non-zero influence sits, against the bound: W − 1 = "
        "{W} − 1 for each local layer up to layer {layer}, {bound} in all. Near the start of the text the text "
        "itself is the limit.",
        "影响不为零的最远输入在多少个位置之前，与界限相比：直到层 {layer} 的每个局部层各 W − 1 = {W} − 1，"
        "合计 {bound}。在文本开头附近，文本本身的长度就是限制。",
    ),
    "mistral.m.farthest.help.global": (
        "A global layer ran at or before layer {layer}: every earlier input may matter, so the bound is the whole "
        "text.",
        "层 {layer} 或更早已经有一个全局层：之前的每个输入都可能有影响，所以界限是整段文本。",
    ),
    "mistral.reach.bound.real": ("bound (local layers: Σ (W − 1))", "界限（局部层：Σ (W − 1)）"),
    "mistral.roll.after_text": (
        "Write after the text of section 1 (longer than W = {W})",
        "接着第 1 节的文本往下写（比 W = {W} 更长）",
    ),
    "mistral.roll.after_text.help": (
        "A prompt here is far shorter than W = {W}, so no local buffer ever wraps. The text of section 1 is longer: "
        "after it each local layer's buffer holds only the last W positions, the oldest overwritten.",
        "这里的提示远短于 W = {W}，所以局部缓冲永远不会绕回。第 1 节的文本更长：读完它之后，"
        "每个局部层的缓冲只保留最后 W 个位置，最早的被覆盖。",
    ),
    "mistral.roll.run": (
        "Slots {lo}–{hi} of {W}, around the one written last (red); the slot map below shows all of them.",
        "槽位 {lo}–{hi}（共 {W} 个），围绕最后写入的槽位（红色）；下面的槽位图显示全部槽位。",
    ),
    "mistral.roll.after_text.on": (
        "The prompt is the text of section 1.",
        "提示就是第 1 节的文本。",
    ),
    "mistral.roll.caption.real": (
        "On {name}, each local layer's cache is a rolling buffer of W = {W} slots (position i in slot i mod W); "
        "the global layers ({globals}) keep every position, so their caches grow with the text. Press generate: "
        "greedy decoding with these caches, then once more with a growing cache in every layer.",
        "在 {name} 上，每个局部层的缓存是 W = {W} 个槽位的滚动缓冲（位置 i 存在槽位 i mod W）；"
        "全局层（{globals}）保留每个位置，所以它们的缓存随文本增长。点击生成：先用这些缓存做贪心解码，"
        "再用每层都增长的缓存解码一次作对比。",
    ),
    "mistral.m.generated.help.real": (
        "After a prompt of {P} tokens, as the model's tokenizer encodes it.",
        "接在 {P} 个词元的提示之后（按模型自己的分词器编码）。",
    ),
    "mistral.m.local_rows": ("Rows in a local cache", "局部层缓存的行数"),
    "mistral.m.local_rows.help": (
        "Positions one of the {n} local layers' buffers holds at the end: at most W = {W}, however long the text.",
        "结束时 {n} 个局部层中每个缓冲保存的位置数：无论文本多长，最多 W = {W}。",
    ),
    "mistral.m.global_rows": ("Rows in a global cache", "全局层缓存的行数"),
    "mistral.m.global_rows.help": (
        "Positions one of the {n} global layers' caches holds at the end: every position seen.",
        "结束时 {n} 个全局层中每个缓存保存的位置数：见过的每个位置。",
    ),
    "mistral.m.split": ("Local + global caches", "局部 + 全局缓存"),
    "mistral.m.split.help": (
        "Bytes of keys and values at the end, the local layers' buffers and the global layers' caches, measured "
        "from the tensors.",
        "结束时键和值的字节数：局部层的缓冲与全局层的缓存，直接按张量测得。",
    ),
    "mistral.roll.map.real": (
        "Which absolute position each slot (down) holds after each step (across), layer 0 (every local layer "
        "alike); the frame marks the step chosen.",
        "每一步（横向）之后各槽位（纵向）保存的绝对位置，层 0（各局部层相同）；方框标出所选的步。",
    ),
    "mistral.roll.memory.real": (
        "Cache memory against the cached positions: the local layers' rolling buffers take W slots from the start "
        "and never more, while the global layers keep growing; a growing cache in every layer starts small and "
        "passes them once the text is longer than W.",
        "缓存大小随已缓存位置数的变化：局部层的滚动缓冲一开始就占 W 个槽位，之后不再增加，全局层则持续增长；"
        "每层都增长的缓存起初很小，文本超过 W 后会超过它们。",
    ),
    "mistral.pvh.layers": ("local and global layers", "局部层与全局层"),
    "mistral.pvh.layers.paper": (
        "five local layers for every global one, the first layer local (the Gemma 3 report, on its 1B to 27B models)",
        "每个全局层配五个局部层，第一层是局部层（Gemma 3 技术报告，针对其 1B 到 27B 的模型）",
    ),
    "mistral.pvh.layers.here": (
        "{n_local} local, {n_global} global (layers {globals})",
        "{n_local} 个局部层，{n_global} 个全局层（层 {globals}）",
    ),
    "mistral.pvh.window.gemma": ("local window 1,024 tokens", "局部窗口 1,024 个词元"),
    "mistral.pvh.window.here.real": ("W = {W} (the checkpoint's config)", "W = {W}（检查点的配置）"),
    "mistral.pvh.rope": ("RoPE base", "RoPE 基数"),
    "mistral.pvh.rope.paper": (
        "10,000 in local layers, 1,000,000 in global ones",
        "局部层 10,000，全局层 1,000,000",
    ),
    "mistral.pvh.rope.here": ("local {local}, global {glob}", "局部 {local}，全局 {glob}"),
    "mistral.pvh.qknorm": ("attention scores", "注意力分数"),
    "mistral.pvh.qknorm.paper": (
        "QK-norm (RMSNorm on queries and keys) in place of Gemma 2's soft-capping",
        "QK-norm（对查询和键做 RMSNorm），取代 Gemma 2 的软上限（soft-capping）",
    ),
    "mistral.pvh.qknorm.here": ("QK-norm, no soft-cap", "QK-norm，无软上限"),
    "mistral.explain.real": (
        "**What {name} keeps of Mistral's idea.** Its local layers use the sliding window: a band of W keys, a "
        "rolling cache of W slots, a reach that grows by W − 1 per layer. **What it changes.** Every few layers a "
        "global layer reads the whole prefix, so after the first one nothing is out of reach (section 2); the "
        "window then buys memory and compute, not a limit on context. Only the global layers' caches grow with the "
        "text (section 3).  \n"
        "**Where the page departs.** {name} is a released model, pre-trained elsewhere and converted into our "
        "classes; the held-out knock-outs and the narrower window are measured on our own mistral only.  \n"
        "Report: Gemma Team, *Gemma 3 Technical Report*, arXiv 2503.19786; Mistral 7B: arXiv 2310.06825.",
        "**{name} 保留了 Mistral 的什么。** 它的局部层使用滑动窗口：W 个键的带、W 个槽位的滚动缓存、"
        "每层增加 W − 1 的感受范围。**它改了什么。** 每隔几层有一个全局层读取整个前缀，所以经过第一个全局层后，"
        "没有够不到的输入（第 2 节）；窗口换来的是内存和计算的节省，而不是对上下文的限制。"
        "只有全局层的缓存随文本增长（第 3 节）。  \n"
        "**本页与论文的不同。** {name} 是已发布的模型，在别处预训练后转换进我们的类；"
        "留出文本上的敲除与更窄窗口的实验只在我们自己的 mistral 上测量。  \n"
        "报告：Gemma Team，*Gemma 3 Technical Report*，arXiv 2503.19786；Mistral 7B：arXiv 2310.06825。",
    ),
    "mistral.reach.some": (
        "Measured after layers {layers}: a backward pass through a long text costs seconds on this model, so only "
        "the local layers whose bound can still fall short of this position, and the first global layer. Every "
        "layer after it has the whole text in reach.",
        "只测量层 {layers} 之后的状态：在这个模型上，对长文本做一次反向传播要花数秒，所以只测界限仍可能够不到该位置的"
        "局部层，以及第一个全局层。它之后的每一层都能够到整段文本。",
    ),
    "mistral.m.memory.help.real": (
        "Keys and values of every layer, measured from the tensors. A rolling buffer takes its W = {W} slots at the "
        "first token, so until the text passes W it holds more bytes than a cache that grows (here the growing one "
        "is {ratio:.2f}× the rolling one); past W the local buffers stop growing and only the global caches grow.",
        "各层键和值的大小，直接按张量测得。滚动缓冲在第一个词元时就占用全部 W = {W} 个槽位，所以在文本超过 W 之前，"
        "它比逐步增长的缓存占用更多字节（这里增长的缓存是滚动缓冲的 {ratio:.2f} 倍）；超过 W 之后局部缓冲不再增长，"
        "只有全局缓存继续增长。",
    ),
}
