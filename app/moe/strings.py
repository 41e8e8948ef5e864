"""Strings of the MoE routing page (2101.03961, 2401.04088, 2401.06066)."""

STRINGS = {
    # guided experiment
    "moe.try.do": (
        "Keep the *Mixed* sample at the trained capacity factor {cf} and note the hatched (dropped) tokens. Then "
        "add one line at the end of the text: `{line}`.",
        "保持“混合”示例和训练时的容量因子 {cf}，留意带斜纹（被丢弃）的词元。然后在文本末尾另起一行加上：`{line}`。",
    ),
    "moe.try.see": (
        "*Capacity per expert* goes from {c0} to {c1} slots and *Dropped token slots* from {t0} to {t1}. Yet the "
        "first {n} tokens are the same text as before: over the {layers} layers, {d0} of their slots were dropped "
        "(hatched) before and only {d1} now; the other drops fall on the new line. Their outputs changed, although "
        "nothing before them did.",
        "“每个专家的容量”从 {c0} 个槽位变为 {c1} 个，“被丢弃的词元槽位”从 {t0} 个变为 {t1} 个。但前 {n} 个词元"
        "与之前是同一段文本：它们在 {layers} 层中被丢弃（斜纹）的槽位从 {d0} 个变成了只有 {d1} 个，其余的丢弃落在"
        "新加的那一行上。尽管它们前面的内容没有任何变化，它们的输出却变了。",
    ),
    "moe.try.why": (
        "Capacity = ⌈{cf} × tokens × k ÷ experts⌉ is counted over all the tokens of the batch. Which expert a token "
        "picks depends on the token and the text before it; whether that expert still has room depends on how many "
        "tokens the batch holds and on those queued before it. So in a Switch model a prefix's outputs change when "
        "text is appended, or when other sequences share its batch: by design, the price of expert buffers of a "
        "fixed size.",
        "容量 = ⌈{cf} × 词元数 × k ÷ 专家数⌉，是按整个批次的全部词元计算的。一个词元选哪个专家，取决于它自己和它之前的"
        "文本；而那个专家是否还有空位，取决于批次中有多少词元以及排在它前面的词元。所以在 Switch 模型中，后面追加文本、"
        "或者有别的序列与它同批，都会改变前缀的输出：这是设计使然，是专家缓冲区大小固定的代价。",
    ),
    # in the paper vs here
    "moe.pvh.model": ("Model", "模型"),
    "moe.pvh.model.paper": (
        "Switch Transformer: T5 encoder–decoder whose feed-forward layers become Switch (MoE) layers",
        "Switch Transformer：T5 编码器–解码器，前馈层换成 Switch（混合专家）层",
    ),
    "moe.pvh.model.here": (
        "decoder-only language model: {layers} layers, width {dim}, {heads} heads; every feed-forward layer is an "
        "MoE layer",
        "仅解码器的语言模型：{layers} 层，宽度 {dim}，{heads} 个头；每个前馈层都是混合专家层",
    ),
    "moe.pvh.experts": ("Experts and parameters", "专家与参数"),
    "moe.pvh.experts.paper": (
        "up to 2,048 experts: Switch-C has 1.6T parameters",
        "最多 2,048 个专家：Switch-C 有 1.6 万亿参数",
    ),
    "moe.pvh.experts.here": (
        "{E} routed experts (hidden width {hidden}) + {shared} shared expert per layer; {params:,} parameters, "
        "{active:,} active per token",
        "每层 {E} 个路由专家（隐藏宽度 {hidden}）+ {shared} 个共享专家；共 {params:,} 个参数，"
        "每个词元激活 {active:,} 个",
    ),
    "moe.pvh.routing": ("Routing", "路由"),
    "moe.pvh.routing.paper": (
        "top-1, a capacity factor, load-balancing loss with α = 10⁻²",
        "top-1，容量因子，负载均衡损失 α = 10⁻²",
    ),
    "moe.pvh.routing.here": (
        "top-{k}, capacity factor {cf}, α = {aux}",
        "top-{k}，容量因子 {cf}，α = {aux}",
    ),
    "moe.pvh.data": ("Data", "数据"),
    "moe.pvh.data.paper": (
        "C4 web text, T5's span-corruption objective",
        "C4 网页文本，T5 的片段破坏目标",
    ),
    "moe.pvh.data.here": (
        "Shakespeare, Python standard-library source and arithmetic, mixed in every batch; {tokens:,} tokens seen, "
        "next-token prediction",
        "莎士比亚作品、Python 标准库源码和算术式，每个批次都混合三者；共见过 {tokens:,} 个词元，预测下一个词元",
    ),
    "moe.pvh.result": ("Headline result", "主要结果"),
    "moe.pvh.result.paper": (
        "up to 7× faster pre-training than T5-Base at the same FLOPs per token",
        "在每词元 FLOPs 相同的条件下，预训练速度最高达到 T5-Base 的 7 倍",
    ),
    "moe.pvh.result.here": (
        "held-out loss {val:.2f} nats against {dense:.2f} for a dense twin with the same active parameters, data "
        "and steps",
        "留出集损失 {val:.2f} 奈特；激活参数、数据与步数都相同的稠密模型为 {dense:.2f}",
    ),
    "moe.pvh.dep.shared": (
        "{shared} shared expert per layer that every token passes through, as in DeepSeekMoE (arXiv 2401.06066); "
        "Switch has none. With 4 routed experts twice as wide and no shared one, this model did not reliably beat "
        "its dense twin.",
        "每层有 {shared} 个所有词元都会经过的共享专家，这来自 DeepSeekMoE（arXiv 2401.06066）；Switch 没有。"
        "若改用 4 个宽一倍的路由专家且不设共享专家，这个模型不能稳定地胜过对应的稠密模型。",
    ),
    "moe.pvh.dep.decoder": (
        "A decoder-only model predicting the next token, not T5's encoder–decoder with span corruption.",
        "这是预测下一个词元的仅解码器模型，而不是采用片段破坏目标的 T5 编码器–解码器。",
    ),
    "moe.pvh.dep.k2": (
        "k = 2 on this page applies Mixtral's rule (arXiv 2401.04088) to a model trained with k = {k}.",
        "本页的 k = 2 是把 Mixtral 的规则（arXiv 2401.04088）用在一个以 k = {k} 训练的模型上。",
    ),
    "moe.pvh.dep.vocab": (
        "Its own byte-level BPE has {vocab:,} tokens (the GPT's has 2,048), so a uniform guess scores "
        "ln {vocab} ≈ {uniform:.2f} nats.",
        "它自己的字节级 BPE 有 {vocab:,} 个词元（GPT 的有 2,048 个），"
        "所以均匀猜测的损失是 ln {vocab} ≈ {uniform:.2f} 奈特。",
    ),
    # input
    "moe.sample": ("Pick a sample", "选择示例"),
    "moe.sample.shakespeare": ("Shakespeare", "莎士比亚"),
    "moe.sample.python": ("Python code", "Python 代码"),
    "moe.sample.arithmetic": ("Arithmetic", "算术"),
    "moe.sample.mixed": ("Mixed", "混合"),
    "moe.input": ("Text to route", "要路由的文本"),
    "moe.input.help": (
        "Any text up to {max_chars} characters. The model was trained on Shakespeare, Python standard-library "
        "source and arithmetic lines, so those are where its experts have habits.",
        "任意文本，最多 {max_chars} 个字符。模型在莎士比亚作品、Python 标准库源码和算术式上训练，"
        "因此它的专家在这三类文本上有明显的分工习惯。",
    ),
    "moe.top_k": ("Experts per token (k)", "每个词元的专家数（k）"),
    "moe.top_k.help": (
        "1 = Switch Transformer: the single best expert, its output scaled by the router probability. "
        "2 = Mixtral: the two best experts, their weights renormalised to sum to 1. The shipped model was trained "
        "with k = 1, so k = 2 shows the routing decision but is not how it learned.",
        "1 = Switch Transformer：只用概率最高的一个专家，其输出乘以路由概率。2 = Mixtral：用概率最高的两个专家，"
        "两个权重重新归一化使其和为 1。发布的模型以 k = 1 训练，因此 k = 2 展示的是路由决策，而非模型训练时的用法。",
    ),
    "moe.capacity": ("Capacity factor", "容量因子"),
    "moe.capacity.help": (
        "Each expert takes at most ⌈capacity factor × tokens × k ÷ experts⌉ token slots of this batch; the rest "
        "are dropped and skip the layer through the residual connection. 0 = no limit (as in Mixtral). "
        "The model was trained at 1.25.",
        "每个专家在本批次中最多接收 ⌈容量因子 × 词元数 × k ÷ 专家数⌉ 个词元槽位；超出的被丢弃，"
        "通过残差连接直接跳过这一层。0 表示不设上限（如 Mixtral）。模型训练时使用 1.25。",
    ),
    "moe.error.empty": ("Type some text to route.", "请输入要路由的文本。"),
    "moe.error.too_long": ("The text is longer than {max_chars} characters.", "文本超过 {max_chars} 个字符。"),
    "moe.error.too_many_tokens": (
        "The text makes {n} tokens; the model reads at most {max_tokens}. Please shorten it.",
        "该文本被切分为 {n} 个词元，而模型最多读取 {max_tokens} 个。请缩短文本。",
    ),
    # metrics
    "moe.metric.tokens": ("Tokens", "词元数"),
    "moe.metric.capacity": ("Capacity per expert", "每个专家的容量"),
    "moe.unlimited": ("no limit", "不限"),
    "moe.metric.dropped": ("Dropped token slots", "被丢弃的词元槽位"),
    "moe.metric.dropped.help": (
        "Slots (token, choice) that found their expert full, summed over all MoE layers. The count depends on the "
        "whole batch: more tokens, more room per expert.",
        "发现目标专家已满的槽位（词元、选择）数，所有 MoE 层合计。这个数取决于整个批次：词元越多，每个专家的空位越多。",
    ),
    "moe.metric.aux": ("Load-balancing loss (mean of layers)", "负载均衡损失（各层平均）"),
    "moe.metric.aux.help": (
        "E · Σᵢ fᵢ · Pᵢ; 1 means perfectly even routing.",
        "E · Σᵢ fᵢ · Pᵢ；等于 1 表示路由完全均匀。",
    ),
    "moe.metric.layer_dropped": ("Dropped slots in layer {layer}", "层 {layer} 被丢弃的槽位"),
    "moe.metric.aux_layer": ("Load-balancing loss, layer {layer}", "层 {layer} 的负载均衡损失"),
    "moe.metric.nmi": ("Domain–expert NMI, layer {layer}", "层 {layer}：领域与专家的 NMI"),
    "moe.metric.nmi.help": (
        "Normalised mutual information between a token's domain and its first-choice expert on the held-out data "
        "(0 = the expert says nothing about the domain, 1 = one expert per domain). From the model card.",
        "留出数据上，词元所属领域与其首选专家之间的归一化互信息（0 = 专家与领域无关，1 = 每个领域对应一个专家）。"
        "数值取自模型卡片。",
    ),
    # tokens
    "moe.h.tokens": ("Every token, coloured by its expert", "每个词元按其专家着色"),
    "moe.expert": ("expert", "专家"),
    "moe.dropped": ("dropped", "被丢弃"),
    "moe.kept": ("kept", "保留"),
    "moe.strip.layer": ("Layer {layer} · {dropped} dropped", "层 {layer} · 丢弃 {dropped} 个"),
    "moe.strip.layer.short": ("Layer {layer}", "层 {layer}"),
    "moe.strip.caption": (
        "Colour = first-choice expert. Struck-through, hatched tokens lost their first choice to the capacity limit "
        "and pass this layer unchanged (with k = 2 the count per layer also includes dropped second choices). "
        "Hover over a token for the router's probabilities.",
        "颜色 = 首选专家。带删除线和斜纹的词元因容量限制失去了首选专家，原样穿过这一层（k = 2 时，每层的丢弃数"
        "还包括被丢弃的第二选择）。将鼠标悬停在词元上可查看路由概率。",
    ),
    # router
    "moe.h.router": ("Router probabilities and combine weights", "路由概率与组合权重"),
    "moe.layer": ("MoE layer", "MoE 层"),
    "moe.token": ("token", "词元"),
    "moe.probability": ("probability", "概率"),
    "moe.col.expert": ("expert #{rank}", "第 {rank} 选专家"),
    "moe.col.weight": ("weight #{rank}", "第 {rank} 选权重"),
    "moe.col.dropped": ("dropped #{rank}", "第 {rank} 选被丢弃"),
    "moe.combine.caption.1": (
        "Top-1 (Switch): the weight is the router probability of the chosen expert; it is 0 for a dropped token.",
        "Top-1（Switch）：权重就是所选专家的路由概率；被丢弃的词元权重为 0。",
    ),
    "moe.combine.caption.2": (
        "Top-2 (Mixtral): the two probabilities divided by their sum, so the weights add up to 1 (a dropped "
        "choice gets 0).",
        "Top-2（Mixtral）：两个概率分别除以它们的和，因此权重之和为 1（被丢弃的选择权重为 0）。",
    ),
    "moe.explain.routing": (
        "**What you see.** A small linear *router* looks at each token and gives a softmax over the experts "
        "(the heatmap; red dots mark the chosen ones). Only the chosen experts run for that token, so adding "
        "experts adds parameters without adding computation per token. The Switch Transformer "
        "([arXiv:2101.03961](https://arxiv.org/abs/2101.03961)) sends each token to one expert and multiplies its "
        "output by the router probability, which is how the router gets a gradient. Mixtral "
        "([arXiv:2401.04088](https://arxiv.org/abs/2401.04088)) takes the best two and renormalises their weights. "
        "With k = 2 the table gets a second choice for every token.",
        "**你看到的。** 一个小的线性*路由器*查看每个词元，输出对各专家的 softmax 概率（热力图；红点标出被选中的专家）。"
        "每个词元只运行被选中的专家，因此增加专家数量会增加参数，却不增加每个词元的计算量。"
        "Switch Transformer（[arXiv:2101.03961](https://arxiv.org/abs/2101.03961)）把每个词元只送给一个专家，"
        "并把该专家的输出乘以路由概率，路由器正是借此获得梯度。Mixtral"
        "（[arXiv:2401.04088](https://arxiv.org/abs/2401.04088)）选择概率最高的两个专家，并把两者的权重重新归一化。"
        "k = 2 时，表格中每个词元多出第二选择。",
    ),
    # capacity
    "moe.h.capacity": ("Capacity: expert load and dropped tokens", "容量：专家负载与被丢弃的词元"),
    "moe.capacity.line": ("capacity", "容量"),
    "moe.slots": ("token slots", "词元槽位"),
    "moe.capacity.formula": (
        "capacity = ⌈{cf:.2f} × {n} tokens × k={k} ÷ {E} experts⌉ = **{capacity}** slots per expert",
        "容量 = ⌈{cf:.2f} × {n} 个词元 × k={k} ÷ {E} 个专家⌉ = 每个专家 **{capacity}** 个槽位",
    ),
    "moe.explain.capacity": (
        "**Why a capacity.** Accelerators (TPUs, in the Switch paper) run programs compiled for fixed tensor shapes, "
        "but how many tokens the router sends to each expert is known only at run time. So every expert gets a "
        "buffer with a fixed number of slots, set by the capacity factor. Slots are filled in order (every first "
        "choice before any second choice, each in token order); once an expert's buffer is full, further tokens "
        "are *dropped*: the layer adds nothing to them and the residual connection carries them on. The capacity "
        "is counted over the whole batch, so whether a token keeps its slot depends on the other tokens in the "
        "batch, later ones included (see *Try this* at the top). A higher factor drops fewer tokens but spends "
        "memory and communication on empty slots; the Switch paper finds that small factors (1.0, 1.25) work well.",
        "**为什么要设容量。** 加速器（Switch 论文中是 TPU）运行的是按固定张量形状编译的程序，"
        "而路由器给每个专家送多少词元，要到运行时才知道。所以每个专家有一个槽位数固定的缓冲区，大小由容量因子决定。槽位按顺序填充（所有首选先于"
        "任何次选，各自按词元顺序）；专家的缓冲区一旦满了，后来的词元就被*丢弃*：这一层对它们不做任何处理，由残差连接"
        "把它们原样传下去。容量按整个批次计算，所以一个词元能否保住槽位取决于批次中的其他词元，包括排在它后面的"
        "（见页面顶部的“试一试”）。容量因子越大，丢弃越少，但空槽位会浪费显存和通信；Switch 论文发现较小的因子"
        "（1.0、1.25）效果就很好。",
    ),
    # balance
    "moe.h.balance": ("Load-balancing loss", "负载均衡损失"),
    "moe.f": ("fᵢ: share of routed slots", "fᵢ：分到的槽位比例"),
    "moe.P": ("Pᵢ: mean router probability", "Pᵢ：平均路由概率"),
    "moe.explain.balance": (
        "**The auxiliary loss.** Left alone, a router tends to collapse onto a few experts that then get better and "
        "attract even more tokens. Switch adds α · E · Σᵢ fᵢ · Pᵢ to the training loss (α = 0.01 here): fᵢ is the "
        "share of tokens sent to expert i (not differentiable), Pᵢ the mean probability the router gives it "
        "(differentiable). It equals 1 when both are uniform (dotted line at 1/E) and grows when routing "
        "concentrates. For a single short input it can sit above 1 even for a well-balanced model: the balance is "
        "asked for over a whole batch of mixed text.",
        "**辅助损失。** 如果不加约束，路由器往往会塌缩到少数几个专家上，这些专家越学越好，又吸引更多词元。"
        "Switch 在训练损失中加入 α · E · Σᵢ fᵢ · Pᵢ（这里 α = 0.01）：fᵢ 是分给专家 i 的词元比例（不可微），"
        "Pᵢ 是路由器给它的平均概率（可微）。两者都均匀（点线 1/E）时损失等于 1，路由越集中损失越大。"
        "对于一段很短的输入，即使模型整体很均衡，该值也可能高于 1：均衡是在整批混合文本上要求的。",
    ),
    "moe.explain.auxfree": (
        "**Balancing without the loss.** DeepSeek-V3 ([arXiv:2412.19437](https://arxiv.org/abs/2412.19437), "
        "§2.1.2) balances mainly with a bias per expert, added to the router scores only to choose the top-k and "
        "moved after each step against that expert's load. It keeps a complementary sequence-wise balance loss "
        "with a very small α, so that no single sequence is badly unbalanced, and it drops no tokens, in training "
        "or inference. Our switch-auxfree (on the DeepSeek-V3 page) puts that bias on this model, with two "
        "departures: it keeps switch's capacity factor {cf}, so an expert that is full still drops tokens, and it "
        "has no sequence-wise loss (α = 0).",
        "**不用这个损失的均衡。** DeepSeek-V3（[arXiv:2412.19437](https://arxiv.org/abs/2412.19437)，§2.1.2）"
        "主要靠每个专家的一个偏置来均衡负载：偏置加在路由得分上，只用于选出 top-k，每步之后按该专家的负载反向调整。"
        "它还保留一个 α 极小的补充性序列级均衡损失，以免单个序列严重失衡；并且在训练和推理中都不丢弃词元。"
        "我们的 switch-auxfree（见 DeepSeek-V3 页面）把这种偏置用在本模型上，但有两处不同：它保留 switch 的容量因子 "
        "{cf}，专家满了仍会丢弃词元；它也没有序列级损失（α = 0）。",
    ),
    "moe.auxfree.link": ("switch-auxfree on the DeepSeek-V3 page", "DeepSeek-V3 页面上的 switch-auxfree"),
    # specialisation
    "moe.h.special": ("Specialisation by domain", "按领域的专业化"),
    "moe.special.title": (
        "Share of each domain's tokens whose first choice is each expert, in every layer, on fixed held-out samples "
        "(8 windows of 128 tokens per domain).",
        "在固定的留出样本上（每个领域 8 段、每段 128 个词元），各层中各领域词元首选各专家的比例。",
    ),
    "moe.special.caption": (
        "Rows add up to 100%. A column that is dark in one row only is an expert that specialises in that domain.",
        "每行之和为 100%。若某一列只在一行中颜色很深，说明该专家专门处理那个领域。",
    ),
    "moe.explain.special": (
        "**What experts learn.** Nobody tells the router which domain a token comes from; any specialisation "
        "emerges from training. The Mixtral paper finds no clear assignment of experts to topics, but regular "
        "patterns in syntax (indentation in code, for example, tends to go to the same experts). "
        "DeepSeekMoE ([arXiv:2401.06066](https://arxiv.org/abs/2401.06066)) pushes specialisation further with "
        "many small experts plus *shared experts* that every token visits, so common knowledge is not copied into "
        "every routed expert. This model follows that design: next to 6 small routed experts, each MoE layer has one "
        "shared expert of the same width that every token passes through (the colours above show only the routed "
        "choice). With 4 routed experts twice as wide and no shared one, it did not reliably beat its dense twin.",
        "**专家学到了什么。** 没有人告诉路由器词元来自哪个领域；任何专业化都是训练中自发形成的。"
        "Mixtral 论文发现专家并没有明显地按主题分工，但在语法上有规律（例如代码中的缩进往往交给同样的专家）。"
        "DeepSeekMoE（[arXiv:2401.06066](https://arxiv.org/abs/2401.06066)）用大量小专家加上每个词元都会经过的"
        "*共享专家*进一步推动专业化，使通用知识不必复制到每个路由专家中。本模型采用了这种设计：每个 MoE 层除了 6 个"
        "小的路由专家外，还有一个同样宽度、所有词元都会经过的共享专家（上面的颜色只显示路由选择）。"
        "若改用 4 个宽一倍的路由专家且不设共享专家，它并不能稳定地胜过对应的稠密模型。",
    ),
    # parameters
    "moe.h.params": ("Parameters vs active parameters per token", "总参数与每个词元的激活参数"),
    "moe.params.ours": (
        "this model ({E} routed + {shared} shared experts, top-{k})",
        "本模型（{E} 个路由专家 + {shared} 个共享专家，top-{k}）",
    ),
    "moe.params.dense": ("its dense twin", "对应的稠密模型"),
    "moe.params.note.ours": ("trained here, 3 MoE layers", "本站训练，3 个 MoE 层"),
    "moe.params.note.dense": ("same active parameters, same data and steps", "激活参数相同，数据与步数相同"),
    "moe.params.note.published": (
        "{E} routed experts, top-{k}, {shared} shared · arXiv:{arxiv}",
        "{E} 个路由专家，top-{k}，{shared} 个共享专家 · arXiv:{arxiv}",
    ),
    "moe.params.axis": ("parameters (log scale)", "参数量（对数坐标）"),
    "moe.model": ("model", "模型"),
    "moe.total": ("total", "总参数"),
    "moe.active": ("active per token", "每词元激活"),
    "moe.share": ("active share", "激活比例"),
    "moe.note": ("note", "说明"),
    "moe.params.caption": (
        "Published sizes: Switch-C 1.6T parameters (the paper reports its compute in FLOPs, not an active "
        "count); Mixtral 8x7B 46.7B total, 12.9B active; DeepSeek-V3 671B total, 37B active.",
        "公开数据：Switch-C 1.6T 参数（论文以 FLOPs 报告计算量，未给出激活参数量）；Mixtral 8x7B 总计 46.7B，"
        "激活 12.9B；DeepSeek-V3 总计 671B，激活 37B。",
    ),
    "moe.explain.params": (
        "**Sparsity buys parameters, not free lunch.** A token only pays for the experts it visits, so total "
        "parameters can grow by the number of experts while the compute per token stays that of a dense model of "
        "the active size. What it costs instead: all experts must sit in memory; routing must stay balanced or "
        "some devices idle while others drop tokens; and in a distributed model every MoE layer sends tokens to "
        "other devices and back (all-to-all communication), which often dominates the run time.",
        "**稀疏性换来的是参数，而不是免费的午餐。** 每个词元只为它访问的专家付出计算，因此总参数量可以随专家数增长，"
        "而每个词元的计算量仍等于一个“激活规模”的稠密模型。代价在于：所有专家都要放在内存里；路由必须保持均衡，"
        "否则一些设备闲置、另一些设备丢弃词元；在分布式模型中，每个 MoE 层都要把词元发到其他设备再取回"
        "（all-to-all 通信），这常常占据大部分运行时间。",
    ),
    # intervention: an expert switched off, or a token forced to an expert
    "moe.h.ko": ("Intervene: switch an expert off, or move a token", "干预：关闭一个专家，或改派一个词元"),
    "moe.ko.caption": (
        "The model is not changed: the override sits on the router's logits of one layer, for this run only.",
        "模型本身不变：改动只作用于一层路由器的 logits，且只在这次运行中生效。",
    ),
    "moe.ko.mode": ("Intervention", "干预方式"),
    "moe.ko.mode.off": ("Switch the expert off", "关闭该专家"),
    "moe.ko.mode.force": ("Send one token to it", "把一个词元派给它"),
    "moe.ko.expert": ("Expert", "专家"),
    "moe.ko.position": ("Token (position in the text)", "词元（在文本中的位置）"),
    "moe.ko.position.help": (
        "Position 0 is the <eot> token the text starts with.",
        "位置 0 是文本开头的 <eot> 词元。",
    ),
    "moe.ko.m.sent": ("Slots sent to expert {expert}, layer {layer}", "层 {layer} · 派给专家 {expert} 的槽位"),
    "moe.ko.m.token": (
        "Expert of “{token}” (position {position}), layer {layer}",
        "层 {layer} · “{token}”（位置 {position}）的专家",
    ),
    "moe.ko.m.token.help": (
        "Its first-choice expert before → after, and below whether it got a slot.",
        "其首选专家：干预前 → 干预后；下方显示它是否得到了槽位。",
    ),
    "moe.ko.m.dropped": ("Dropped slots, all layers", "被丢弃的槽位（所有层）"),
    "moe.ko.m.text": ("Bits per character, this text", "每字符比特数（本文本）"),
    "moe.ko.m.text.help": (
        "Next-token loss over the whole text in bits, ÷ its characters: before → after the intervention.",
        "整段文本的下一词元损失（比特）÷ 字符数：干预前 → 干预后。",
    ),
    "moe.ko.m.held": ("Bits per character, held-out", "每字符比特数（留出集）"),
    "moe.ko.m.held.help": (
        "On {windows} held-out windows of 128 tokens, a third from each domain, at the trained k = {k} and capacity "
        "factor {cf} (not the controls above), 12 windows to a batch as in training: the capacity counts a batch's "
        "tokens. Before → after.",
        "在 {windows} 段各 128 个词元的留出窗口上（三个领域各占三分之一），使用训练时的 k = {k} 和容量因子 {cf}"
        "（不是上面的控件），像训练时一样每批 12 段：容量按一批的词元计算。干预前 → 干预后。",
    ),
    "moe.ko.strip.before": ("Layer {layer}, before · {dropped} dropped", "层 {layer} · 干预前 · 丢弃 {dropped} 个"),
    "moe.ko.strip.after": ("Layer {layer}, after · {dropped} dropped", "层 {layer} · 干预后 · 丢弃 {dropped} 个"),
    "moe.ko.load.before": ("**Before:** token slots per expert, every layer", "**干预前：** 各层每个专家的词元槽位"),
    "moe.ko.load.after": ("**After:** the same count with the intervention", "**干预后：** 同样的计数，加上干预"),
    "moe.ko.torch_only": (
        "Interventions run on torch: the ONNX graph cannot be changed while it runs, so these numbers come from torch.",
        "干预只在 torch 上运行：ONNX 计算图无法在运行中修改，所以这些数字来自 torch。",
    ),
    "moe.explain.ko": (
        "**What an expert is needed for.** *Switch off* sets the expert's router logit to −∞: its probability "
        "becomes 0 and the softmax shares it among the others, so each token that chose it takes its next choice, "
        "weighted by that expert's now larger probability. The capacity stays ⌈factor × tokens × k ÷ {E}⌉, so "
        "{rest} experts must hold what {E} did: a token whose next choice is already full is dropped, and only the "
        "residual and the shared expert carry it past the layer. *Send one token* swaps, at that position, the "
        "chosen expert's logit with the token's largest: the expert becomes its first choice at the probability "
        "the old choice had. It still queues in token order, so it is dropped if the expert fills up before its "
        "turn. Later layers see a changed input, so their routing can move too. On the held-out windows at the trained "
        "capacity factor, switching off any one expert of layer 0 costs more bits per character than switching off "
        "any one expert of a later layer. "
        "([arXiv:2101.03961](https://arxiv.org/abs/2101.03961), §2.2 on capacity.)",
        "**专家究竟有什么用。** *关闭专家* 把该专家的路由 logit 设为 −∞：它的概率变为 0，softmax 把这部分分给其余专家，"
        "于是原本选它的每个词元改去其次选，并以该专家变大了的概率加权。容量仍是 ⌈容量因子 × 词元数 × k ÷ {E}⌉，"
        "所以 {rest} 个专家要装下原来 {E} 个专家的词元：次选已满的词元会被丢弃，只靠残差连接和共享专家把它带过这一层。"
        "*派一个词元* 在该位置把所选专家的 logit 与该词元最大的 logit 对调："
        "这个专家成为它的首选，概率等于原首选的概率。"
        "它仍按词元顺序排队，所以如果轮到它之前专家已满，它就会被丢弃。后面的层看到的输入变了，它们的路由也可能随之改变。"
        "在训练时的容量因子下，在留出窗口上关闭层 0 的任何一个专家，每字符比特数的增加都比关闭后面任何一层的"
        "任何一个专家更多。"
        "（[arXiv:2101.03961](https://arxiv.org/abs/2101.03961)，§2.2 讲容量。）",
    ),
    "moe.error.ko_mode": ("Choose an intervention.", "请选择一种干预方式。"),
    "moe.error.ko_index": (
        "Choose a layer below {layers}, an expert below {experts} and a position below {tokens}.",
        "请选择小于 {layers} 的层、小于 {experts} 的专家和小于 {tokens} 的位置。",
    ),
    # training: three recorded runs
    "moe.h.train": ("Watching it learn: balancing during training", "看它学习：训练中的负载均衡"),
    "moe.train.missing": (
        "The recorded runs are not installed: `python -m models.train switch-run-aux` (and switch-run-auxfree, "
        "switch-run-none) trains them.",
        "记录了训练过程的模型尚未安装：`python -m models.train switch-run-aux`（以及 switch-run-auxfree、"
        "switch-run-none）可训练它们。",
    ),
    "moe.train.run": ("Run", "训练运行"),
    "moe.train.run.help": (
        "Three runs with the same model, data, seed and steps; they differ only in how the load is balanced.",
        "三次训练的模型、数据、随机种子和步数都相同，只有负载均衡的方式不同。",
    ),
    "moe.train.run.aux": ("auxiliary loss (Switch)", "辅助损失（Switch）"),
    "moe.train.run.auxfree": ("bias, no auxiliary loss (DeepSeek-V3)", "偏置，无辅助损失（DeepSeek-V3）"),
    "moe.train.run.none": ("no balancing", "不做均衡"),
    "moe.train.step": ("Training step", "训练步"),
    "moe.train.step.help": (
        "The weights were kept at {n} steps, densely at the start. The text above is routed through the weights of "
        "the step picked here ({last:,}: the trained model).",
        "在 {n} 个训练步保存了权重，开头更密。上面的文本会经过这里所选训练步的权重进行路由"
        "（{last:,}：训练完成的模型）。",
    ),
    "moe.train.intro": (
        "A smaller Switch than the one above ({layers} layers, width {dim}, {E} routed experts + {shared} shared, "
        "top-1, capacity factor {cf}), trained three times for {steps:,} steps on the same data. Every step's routing "
        "of its training batch was recorded, and the weights at {n} steps. Below, the text above goes through the "
        "picked step's weights at the trained k and capacity factor.",
        "一个比上面更小的 Switch（{layers} 层，宽度 {dim}，{E} 个路由专家 + {shared} 个共享专家，"
        "top-1，容量因子 {cf}），"
        "在相同数据上训练了三次，每次 {steps:,} 步。每一步训练批次的路由都被记录下来，并在 {n} 个训练步保存了权重。"
        "下面把上方的文本送入所选训练步的权重，使用训练时的 k 和容量因子。",
    ),
    "moe.train.m.val": ("Held-out loss at this step", "该步的留出集损失"),
    "moe.train.m.val.help": (
        "Next-token cross-entropy (nats) on 8 held-out windows per domain, measured when the weights were kept.",
        "每个领域 8 个留出窗口上的下一词元交叉熵（奈特），在保存权重时测得。",
    ),
    "moe.train.m.share": ("Busiest expert's share here", "此时最忙专家的占比"),
    "moe.train.m.share.help": (
        "The largest share of a training batch's tokens that one expert of any layer was routed, read from the curve "
        "below at this step (one step up to step {single}, then the mean of {n} steps).",
        "任一层中单个专家分到的训练批次词元的最大占比，从下方曲线在这一步处读出"
        "（步 {single} 之前为单步，之后为 {n} 步的平均）。",
    ),
    "moe.train.m.dropped": ("Tokens dropped here", "此时被丢弃的词元"),
    "moe.train.m.dropped.help": (
        "The share of a training batch's tokens that found their expert full, mean over layers, read from the curve "
        "below at this step.",
        "训练批次中发现所选专家已满的词元占比，对各层取平均，从下方曲线在这一步处读出。",
    ),
    "moe.train.routes": ("Each token's expert at this step", "该步每个词元的专家"),
    "moe.train.col.expert": ("layer {layer} expert", "层 {layer} 专家"),
    "moe.train.col.dropped": ("layer {layer} dropped", "层 {layer} 丢弃"),
    "moe.train.step_axis": ("training step", "训练步"),
    "moe.train.share": ("share of tokens", "词元占比"),
    "moe.train.uniform": ("uniform 1/{E}", "均匀 1/{E}"),
    "moe.train.dropped": ("tokens dropped", "被丢弃的词元"),
    "moe.train.bias": ("selection bias", "选择偏置"),
    "moe.train.shares.caption": (
        "Each expert's share of the training batch's tokens (chosen before the capacity cut), layer by layer: one "
        "point per step up to step {single}, then the mean of {n} steps. The step axis is logarithmic, so the first "
        "steps, where routing moves fastest, get room. The dotted line is the picked step (step 0, before training, "
        "at step 1).",
        "每个专家分到的训练批次词元占比（在容量截断之前的选择），逐层显示：步 {single} 之前每步一个点，之后每个点是 "
        "{n} 步的平均。训练步轴是对数刻度，让路由变化最快的最初几步有足够空间。点线是所选的训练步（训练前的步 0 "
        "画在步 1 处）。",
    ),
    "moe.train.dropped.caption": (
        "The share of each training batch's tokens dropped because their expert was full (one point per step up to "
        "step {single}, then the mean of {n} steps).",
        "每个训练批次中因所选专家已满而被丢弃的词元占比（步 {single} 之前每步一个点，之后为 {n} 步的平均）。",
    ),
    "moe.train.bias.caption": (
        "Each expert's selection bias during training (every step up to step {single}, then the last of every {n}): "
        "it is added to the router probabilities only to pick the expert, and moves by γ after every step, up for "
        "an expert with fewer tokens than the mean, down for one with more.",
        "每个专家在训练中的选择偏置（步 {single} 之前每步都画，之后取每 {n} 步中的最后一步）：它只在挑选专家时加到"
        "路由概率上，每步之后移动 γ，词元少于平均的专家上调，多于平均的下调。",
    ),
    "moe.train.paper.aux": (
        "**What Switch reports.** Switch adds α · E · Σᵢ fᵢ · Pᵢ to the loss, smallest when both the tokens routed "
        "and the router probability are spread evenly over the experts. Its α = 10⁻² was large enough to balance the "
        "load and small enough not to swamp the language-modelling loss "
        "([arXiv:2101.03961](https://arxiv.org/abs/2101.03961), §2.2).",
        "**Switch 论文的报告。** Switch 在损失中加上 α · E · Σᵢ fᵢ · Pᵢ，当路由到各专家的词元和路由概率都均匀分布时"
        "它最小。其 α = 10⁻² 大到足以均衡负载，又小到不会压过语言建模损失"
        "（[arXiv:2101.03961](https://arxiv.org/abs/2101.03961)，§2.2）。",
    ),
    "moe.train.paper.auxfree": (
        "**What DeepSeek-V3 reports.** A bias per expert is added to its score only to choose the top-k, not to "
        "weight its output; after each step it falls by γ for an overloaded expert and rises by γ for an underloaded "
        "one (γ = 0.001 for most of training). The paper reports that this keeps the load balanced throughout "
        "training and does better than balancing by an auxiliary loss alone "
        "([arXiv:2412.19437](https://arxiv.org/abs/2412.19437), §2.1.2). This run keeps Switch's capacity, so it "
        "can still drop tokens; DeepSeek-V3 drops none.",
        "**DeepSeek-V3 论文的报告。** 每个专家有一个偏置，只在选 top-k 时加到它的得分上，不用于加权输出；"
        "每步之后，过载专家的偏置减 γ，欠载专家的加 γ（训练的大部分时间 γ = 0.001）。论文报告这能在整个训练中"
        "保持负载均衡，而且效果优于只用辅助损失来均衡（[arXiv:2412.19437](https://arxiv.org/abs/2412.19437)，"
        "§2.1.2）。这次运行保留了 Switch 的容量，因此仍可能丢弃词元；DeepSeek-V3 不丢弃任何词元。",
    ),
    "moe.train.paper.none": (
        "**What happens without balancing.** Shazeer et al. observed that a gate left alone tends to settle on "
        "giving large weights to the same few experts, and that this feeds itself: the favoured experts train "
        "faster and so get chosen even more ([arXiv:1701.06538](https://arxiv.org/abs/1701.06538), §4). With "
        "Switch's capacity, tokens past a full expert are dropped as well.",
        "**不做均衡会怎样。** Shazeer 等人观察到，不加约束的门控往往会收敛到总给同样少数几个专家大权重的状态，"
        "而且这会自我强化：受青睐的专家训练得更快，于是被选得更多（[arXiv:1701.06538](https://arxiv.org/abs/1701.06538)，"
        "§4）。在 Switch 的容量限制下，超出已满专家的词元还会被丢弃。",
    ),
    "moe.train.here": (
        "**What happened here.** Over the last 100 of {steps:,} steps, the experts' shares of a batch ranged from "
        "{min_share:.1%} to {max_share:.1%} (uniform: {uniform:.1%}) and {dropped:.1%} of the tokens were dropped. "
        "Held-out loss {val:.3f} nats, against {bigram:.3f} for a bigram model.",
        "**这里发生了什么。** 在 {steps:,} 步的最后 100 步中，各专家分到的批次词元占比在 {min_share:.1%} 到 "
        "{max_share:.1%} 之间（均匀为 {uniform:.1%}），{dropped:.1%} 的词元被丢弃。留出集损失 {val:.3f} 奈特，"
        "二元语法模型为 {bigram:.3f}。",
    ),
    "moe.train.here.peak": (
        "At its busiest, one expert took {peak_share:.0%} of the tokens (mean of {n} steps, to step {peak_step:,}); "
        "the most dropped was {peak_dropped:.0%} (to step {peak_dropped_step:,}).",
        "最忙的时候，一个专家分到了 {peak_share:.0%} 的词元（{n} 步平均，截至步 {peak_step:,}）；"
        "丢弃最多时为 {peak_dropped:.0%}（截至步 {peak_dropped_step:,}）。",
    ),
    "moe.train.here.starved": (
        "An expert first took under {starved:.0%} of the tokens (mean of {n} steps) at step {starved_step:,}; at the "
        "end {starved_end} of the {total} experts were under it.",
        "在步 {starved_step:,}，首次有专家分到的词元不足 {starved:.0%}（{n} 步平均）；到训练结束时，{total} 个专家中"
        "有 {starved_end} 个低于这一比例。",
    ),
    "moe.train.here.never": (
        "No expert's share fell under {starved:.0%} (mean of {n} steps) at any point of training.",
        "训练过程中任何时候都没有专家的占比低于 {starved:.0%}（{n} 步平均）。",
    ),
    "moe.train.here.bias": (
        "The biases ended between {bias_min:+.3f} and {bias_max:+.3f}.",
        "偏置最终落在 {bias_min:+.3f} 到 {bias_max:+.3f} 之间。",
    ),
    "moe.error.run": ("Choose one of the recorded runs: {runs}.", "请选择一个记录了训练过程的运行：{runs}。"),
}
