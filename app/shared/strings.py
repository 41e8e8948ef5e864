"""Strings of the app shell (navigation, papers), the shared views and the errors every page can show."""

STRINGS = {
    # shell
    "app.title": ("Transformer Explorer", "Transformer 探索器"),
    "sidebar.language": ("Language", "语言"),
    "sidebar.backend": ("Backend", "推理后端"),
    "sidebar.backend.help": (
        "torch is the reference and supports interventions; onnx runs the same exported model in ONNX Runtime.",
        "torch 是参考实现，支持干预实验；onnx 在 ONNX Runtime 中运行同一个导出的模型。",
    ),
    "sidebar.present": ("Presenter mode", "演示模式"),
    "sidebar.present.help": (
        "For a projector: larger type, explanations, reference sections and captions hidden, the sidebar collapsed; "
        "Page Down and Page Up (a presentation clicker's keys) bring the next or previous figure to the middle of "
        "the screen. The link keeps it on.",
        "用于投影：字体更大，隐藏讲解、参考部分和图注，侧边栏收起；Page Down 和 Page Up（翻页笔的按键）把下一张或"
        "上一张图移到屏幕中央。分享链接会保持此模式。",
    ),
    "sidebar.reset": ("Reset", "重置"),
    "sidebar.reset.help": (
        "Every control of this page back to its default (the language and backend stay).",
        "把本页所有控件恢复为默认值（语言和后端保持不变）。",
    ),
    "sidebar.link": ("Link", "链接"),
    "sidebar.link.help": (
        "This view's address, the same as in your browser's address bar: it opens the page with every control as it "
        "is now. Select it below and copy it.",
        "当前视图的地址，与浏览器地址栏中的相同：打开它会看到各控件保持现在的状态。在下方选中它并复制。",
    ),
    "link.ignored": (
        "Not usable in this link, so left out: {items}. The page shows the value after each arrow.",
        "此链接中的这些值在这里无效，已忽略：{items}。页面使用每个箭头后的值。",
    ),
    "sidebar.last_run": ("Last run: {readout}", "最近一次运行：{readout}"),
    "sidebar.warming": (
        "Loading the models in the background: {done} of {total} ready",
        "正在后台加载模型：已就绪 {done} / {total}",
    ),
    "shell.computing": (
        "Running the model for this view (a first visit loads and runs it; later visits show the result at once)…",
        "正在为这个视图运行模型（首次访问需要加载并运行模型；之后再访问会立即显示结果）……",
    ),
    "shell.opening": (
        "Opening this page: a fresh server loads its libraries and the model's code once…",
        "正在打开本页：刚启动的服务器要先加载一次所需的库和模型代码……",
    ),
    "shell.reconnecting": ("Connection lost · reconnecting…", "连接中断 · 正在重新连接……"),
    "shell.connection_error.title": ("The server is not answering", "服务器没有响应"),
    "shell.connection_error.body": (
        "This page keeps trying and comes back by itself once a server answers, with every control as its link holds "
        "it. If it stays like this, reload the page in a minute or ask the person who runs the server.",
        "本页会不断重试，一旦有服务器响应就会自动恢复，各控件保持链接中记录的状态。如果一直这样，请过一分钟再刷新页面，"
        "或联系运行服务器的人。",
    ),
    "era.home": ("Start", "开始"),
    "era.foundations": ("Foundations", "奠基"),
    "era.expansion": ("Expansion", "扩展"),
    "era.efficiency": ("Efficiency", "效率"),
    "era.beyond": ("Beyond attention", "超越注意力"),
    "era.scale": ("Scale & alignment", "规模与对齐"),
    "era.tools": ("Tools", "工具"),
    "tool.compare.title": ("Compare models", "模型对比"),
    "tool.features.title": ("Feature microscope", "特征显微镜"),
    "tool.lessons.title": ("Lessons", "课程"),
    # papers: title and what the user probes
    "paper.transformer.title": ("Attention Is All You Need", "Attention Is All You Need（注意力就是全部）"),
    "paper.transformer.probe": (
        "Encoder, masked decoder and cross-attention; scaled dot-product step by step; sinusoidal positions.",
        "编码器自注意力、解码器掩码自注意力与交叉注意力；逐步拆解缩放点积；正弦位置编码。",
    ),
    "paper.gpt.title": ("GPT-1 / GPT-2 / GPT-3", "GPT-1 / GPT-2 / GPT-3"),
    "paper.gpt.probe": (
        "Next-token distribution, temperature / top-k / top-p, byte-level BPE, in-context learning.",
        "下一个词元的分布，温度 / top-k / top-p 采样，字节级 BPE，上下文学习。",
    ),
    "paper.bert.title": ("BERT", "BERT"),
    "paper.bert.probe": (
        "Masked-token predictions, the 15% / 80-10-10 recipe, next-sentence prediction, [CLS] / [SEP].",
        "掩码词元预测，15% / 80-10-10 掩码方案，下一句预测，[CLS] / [SEP]。",
    ),
    "paper.transformer_xl.title": ("Transformer-XL", "Transformer-XL"),
    "paper.transformer_xl.probe": (
        "Segment-level recurrence memory, relative positions, context fragmentation.",
        "片段级循环记忆，相对位置编码，上下文碎片化。",
    ),
    "paper.t5.title": ("T5", "T5"),
    "paper.t5.probe": (
        "Text-to-text with task prefixes, span corruption with sentinels, relative position buckets.",
        "带任务前缀的文本到文本框架，带哨兵词元的片段破坏，相对位置分桶。",
    ),
    "paper.vit.title": ("Vision Transformer (ViT)", "视觉 Transformer（ViT）"),
    "paper.vit.probe": (
        "Patch grid, patch embeddings, [CLS] attention, attention rollout, position-embedding similarity.",
        "图像块网格，块嵌入，[CLS] 注意力，注意力展开（rollout），位置嵌入相似度。",
    ),
    "paper.moe.title": ("Switch Transformer, Mixtral, DeepSeekMoE", "Switch Transformer、Mixtral、DeepSeekMoE"),
    "paper.moe.probe": (
        "Per-token routing, top-1 vs top-2, capacity and dropped tokens, load balancing, shared experts.",
        "逐词元路由，top-1 与 top-2，容量与丢弃的词元，负载均衡，共享专家。",
    ),
    "paper.rope.title": ("RoFormer / RoPE", "RoFormer / 旋转位置编码（RoPE）"),
    "paper.rope.probe": (
        "Rotation of dimension pairs, the relative property, long-term decay, extrapolation and scaling.",
        "维度对的旋转，相对位置性质，远程衰减，外推与缩放。",
    ),
    "paper.flash.title": ("FlashAttention", "FlashAttention"),
    "paper.flash.probe": (
        "Tiling and online softmax step by step, exactness, memory traffic, live kernel timings.",
        "逐步演示分块与在线 softmax，结果的精确性，显存读写量，实时内核计时。",
    ),
    "paper.llama.title": ("LLaMA family", "LLaMA 家族"),
    "paper.llama.probe": (
        "RMSNorm against LayerNorm, SwiGLU's gate, MHA / GQA / MQA and their KV caches, and the real configurations "
        "of LLaMA, Llama 2 and Qwen2.5.",
        "RMSNorm 与 LayerNorm 对比，SwiGLU 的门，MHA / GQA / MQA 及其键值缓存，"
        "以及 LLaMA、Llama 2 和 Qwen2.5 的真实配置。",
    ),
    "paper.mistral.title": ("Mistral 7B", "Mistral 7B"),
    "paper.mistral.probe": (
        "Sliding-window mask, receptive field over layers, rolling-buffer KV cache.",
        "滑动窗口掩码，跨层感受野，滚动缓冲 KV 缓存。",
    ),
    "paper.mla.title": (
        "DeepSeek-V3: MLA, auxiliary-loss-free balancing, MTP",
        "DeepSeek-V3：MLA、无辅助损失负载均衡、多词元预测",
    ),
    "paper.mla.probe": (
        "A latent KV cache against MHA, GQA and MQA; expert balancing by a bias; drafting with the MTP head.",
        "潜在 KV 缓存与 MHA、GQA、MQA 的对比；用偏置均衡专家负载；用 MTP 头起草。",
    ),
    "paper.mamba.title": ("Mamba", "Mamba"),
    "paper.mamba.probe": (
        "Input-dependent Δ, B, C; Ā = exp(ΔA) decay; hidden state over time; selective copying.",
        "依赖输入的 Δ、B、C；Ā = exp(ΔA) 衰减；隐藏状态随时间的变化；选择性复制。",
    ),
    "paper.scaling.title": ("Scaling laws, Chinchilla, Megatron-LM, ZeRO", "缩放定律、Chinchilla、Megatron-LM、ZeRO"),
    "paper.scaling.probe": (
        "Calculators and small live experiments on our own models.",
        "计算器，以及在我们自己的模型上做的小型实时实验。",
    ),
    "paper.alignment.title": (
        "InstructGPT / RLHF, DPO",
        "InstructGPT / RLHF、DPO",
    ),
    "paper.alignment.probe": (
        "SFT, a reward model, PPO and DPO on our own small model.",
        "在我们自己的小模型上做 SFT、奖励模型、PPO 与 DPO。",
    ),
    "paper.reasoning.title": (
        "Chain of thought, GRPO, DeepSeek-R1",
        "思维链、GRPO、DeepSeek-R1",
    ),
    "paper.reasoning.probe": (
        "Chain of thought against a direct answer; GRPO with verifiable rewards, group by group; R1's pipeline.",
        "思维链与直接回答的对比；逐组观察带可验证奖励的 GRPO；R1 的训练流程。",
    ),
    # shared views
    "view.try.title": ("Try this", "试一试"),
    "view.try.do": ("**Do:**", "**操作：**"),
    "view.try.see": ("**You should see:**", "**你会看到：**"),
    "view.try.why": ("**Why:**", "**原因：**"),
    "view.paper_vs_here": ("In the paper vs here", "论文中 vs 这里"),
    "view.pvh.what": ("what", "项目"),
    "view.pvh.paper": ("in the paper", "论文中"),
    "view.pvh.here": ("here (our trained model)", "这里（我们训练的模型）"),
    "view.pvh.departures": ("Where our model departs from the paper", "我们的模型与论文不同之处"),
    "view.numbers.title": (
        "How to read the numbers: loss, nats, bits per character",
        "如何读这些数字：损失、奈特、每字符比特",
    ),
    "view.numbers.body": (
        "- **Loss** is the cross-entropy −ln p(correct token), averaged over tokens. Natural log, so the unit is "
        "the **nat**; 1 nat = 1/ln 2 ≈ 1.443 bits. Lower is better; 0 means the model gave the right token "
        "probability 1. e^(−loss) is the model's average (geometric mean) probability for the right token: a loss "
        "of 2.3 nats is about 1 in 10.\n"
        "- **Uniform baseline**: a model that knows nothing gives each of V tokens p = 1/V and scores ln V — "
        "ln 2048 ≈ 7.62 nats for the 2,048-token BPE of most of our language models, ln 1024 ≈ 6.93 for a "
        "1,024-token vocabulary. A loss *above* it is worse than a blind guess: the model was confident and wrong.\n"
        "- **Bigram baseline**: predict each token from the one before only (pair counts on the training text). "
        "Beating it shows the model uses more than the last token.\n"
        "- **Bits per character (bpc)** = the total loss over a text, in bits, ÷ the number of characters in it. "
        "Tokenizers cut text differently, so per-token losses of two tokenizers cannot be compared; per-character "
        "ones can.\n"
        "- Losses on **held-out** text (plays the model never saw) measure what it learned, not what it memorised.",
        "- **损失**是交叉熵 −ln p(正确词元)，对词元取平均。用自然对数，单位是**奈特（nat）**；1 奈特 = 1/ln 2 ≈ "
        "1.443 比特。越低越好；0 表示模型给正确词元的概率为 1。e^(−损失) 是模型给正确词元的平均（几何平均）概率："
        "损失 2.3 奈特约等于十分之一。\n"
        "- **均匀基线**：什么都不知道的模型给 V 个词元每个 p = 1/V，损失为 ln V——我们多数语言模型使用 2,048 词元的 "
        "BPE，ln 2048 ≈ 7.62 奈特；1,024 词元的词表为 ln 1024 ≈ 6.93。损失*高于*它，说明比盲猜还差：模型很自信，"
        "却猜错了。\n"
        "- **二元（bigram）基线**：只用前一个词元预测下一个（在训练文本上统计词元对）。优于它说明模型用到了不止"
        "前一个词元。\n"
        "- **每字符比特（bpc）** = 一段文本上以比特计的总损失 ÷ 该文本的字符数。不同分词器切分文本的方式不同，"
        "按词元的损失不能互相比较；按字符的可以。\n"
        "- **留出**文本（模型从未见过的剧本）上的损失衡量的是模型学到的，而不是背下来的。",
    ),
    # knock-outs on several pages (app/shared/interventions.py)
    "ko.m.before": ("Held-out bpc, plain", "留出文本 bpc（原始）"),
    "ko.m.bpc.help": (
        "Bits per character on {n} windows of the held-out plays: the summed loss over the characters the scored "
        "tokens cover, in bits.",
        "在留出剧本的 {n} 个窗口上的每字符比特：被评分词元的总损失（以比特计）÷ 它们覆盖的字符数。",
    ),
    "ko.m.after": ("Held-out bpc, {what}", "留出文本 bpc（{what}）"),
    "ko.loss": ("loss (nats)", "损失（奈特）"),
    "ko.position": ("position", "位置"),
    "ko.smoothed": (
        "Loss at each position averaged over the {windows} windows, drawn as a running mean over {n} positions (the "
        "numbers keep every position).",
        "每个位置的损失在 {windows} 个窗口上取平均，图中画的是 {n} 个位置的滑动平均（数据保留每个位置）。",
    ),
    "view.query": ("query", "查询"),
    "view.key": ("key", "键"),
    "view.layer": ("layer", "层"),
    "view.head": ("head", "头"),
    "view.weight": ("weight", "权重"),
    # zero-based indices, never ordinals (app.shared.i18n.layer_head_label)
    "view.layer_head": ("L{layer} · H{head}", "层 {layer} · 头 {head}"),
    "view.layer_n": ("layer {layer}", "层 {layer}"),
    "view.head_n": ("head {head}", "头 {head}"),
    "view.text.clipped": (
        "The text had {n:,} characters; the box holds {max:,}, so the first {max:,} are kept.",
        "文本共 {n:,} 个字符；输入框最多容纳 {max:,} 个，已保留前 {max:,} 个。",
    ),
    "view.download": ("Numbers", "数据"),
    "view.download.help": (
        "Download the numbers this figure shows ({ext}), written when you click.",
        "下载此图所显示的数据（{ext}），点击时生成。",
    ),
    "view.readout": ("Ran on {backend} · {device} · {ms:.1f} ms", "运行于 {backend} · {device} · {ms:.1f} 毫秒"),
    "view.readout.cached": (
        "From the cache — first computed on {backend} · {device} in {ms:.1f} ms",
        "来自缓存——首次在 {backend} · {device} 上计算，用时 {ms:.1f} 毫秒",
    ),
    "view.paper": ("Paper", "论文"),
    # knock-outs (app/shared/interventions.py)
    "view.ko.stack": ("In the", "所在部分"),
    "view.ko.stack.encoder": ("encoder", "编码器"),
    "view.ko.stack.decoder": ("decoder", "解码器"),
    "view.ko.part": ("Knock out", "敲除对象"),
    "view.ko.part.head": ("one head", "一个头"),
    "view.ko.part.attn": ("layer's attention", "该层注意力"),
    "view.ko.part.mlp": ("layer's MLP", "该层 MLP"),
    "view.ko.part.pair.head": ("self-attention head", "自注意力头"),
    "view.ko.part.pair.attn": ("self-attention", "自注意力"),
    "view.ko.part.pair.cross_head": ("cross-attention head", "交叉注意力头"),
    "view.ko.part.pair.cross": ("cross-attention", "交叉注意力"),
    "view.ko.part.pair.mlp": ("MLP", "MLP"),
    "view.ko.mode": ("Ablation", "消融方式"),
    "view.ko.mode.zero": ("zero ablation", "零消融"),
    "view.ko.mode.mean": ("mean ablation", "均值消融"),
    "view.ko.mode.help": (
        "Zero ablation: the part writes zeros. Mean ablation: at each position it writes the mean of its own output "
        "over this input's positions from 0 up to that one (a running mean, so a decoder still sees no later token; "
        "position 0 keeps its output). That keeps the part's usual size and removes most of what depends on the "
        "token there. An encoder reads the whole input anyway: there the mean is over all positions.",
        "零消融：该部分写入全零。均值消融：在每个位置写入它在本输入位置 0 到该位置上输出的平均值（累积均值，"
        "因此解码器仍看不到后面的词元；位置 0 保留原输出）。这样保持该部分输出的通常大小，去掉大部分随该处词元而变的"
        "信息。编码器本来就读入整个输入，那里的均值取所有位置。",
    ),
    "view.ko.what.blocks.head": ("{lh}", "{lh}"),
    "view.ko.what.blocks.attn": ("attention of layer {layer}", "层 {layer} 的注意力"),
    "view.ko.what.blocks.mlp": ("MLP of layer {layer}", "层 {layer} 的 MLP"),
    "view.ko.what.encoder.head": ("encoder {lh}", "编码器 {lh}"),
    "view.ko.what.encoder.attn": ("encoder self-attention, layer {layer}", "编码器层 {layer} 的自注意力"),
    "view.ko.what.encoder.mlp": ("encoder MLP, layer {layer}", "编码器层 {layer} 的 MLP"),
    "view.ko.what.decoder.head": ("decoder self-attention {lh}", "解码器自注意力 {lh}"),
    "view.ko.what.decoder.attn": ("decoder self-attention, layer {layer}", "解码器层 {layer} 的自注意力"),
    "view.ko.what.decoder.cross_head": ("cross-attention {lh}", "交叉注意力 {lh}"),
    "view.ko.what.decoder.cross": ("cross-attention, layer {layer}", "解码器层 {layer} 的交叉注意力"),
    "view.ko.what.decoder.mlp": ("decoder MLP, layer {layer}", "解码器层 {layer} 的 MLP"),
    "view.ko.plain": ("plain", "原始"),
    "view.ko.knocked": ("{what} knocked out", "敲除 {what}"),
    "view.ko.torch_only": (
        "Knock-outs run on torch: the ONNX graph cannot be changed while it runs, so these numbers come from torch.",
        "敲除只在 torch 上运行：ONNX 计算图无法在运行中修改，所以这些数字来自 torch。",
    ),
    "error.onnx_missing": (
        "The ONNX model of {name} is missing. Run: python -m models.export {name}",
        "缺少 {name} 的 ONNX 模型。请运行：python -m models.export {name}",
    ),
    "error.corpus_missing": (
        "The Shakespeare corpus is not downloaded ({path} has no {file}), and this part needs it. Run once: "
        "python -m models.data.shakespeare",
        "尚未下载莎士比亚语料（{path} 中没有 {file}），这一部分需要它。请先运行一次：python -m models.data.shakespeare",
    ),
    # models/pretrained/hub.py's refusals (HubError.reason), as services._hub_error raises them
    "error.hub.offline": (
        "Downloads are off on this host (TE_OFFLINE or HF_HUB_OFFLINE). Whoever runs it can fetch {name} ahead: "
        "python -m models.pretrained.hub fetch {repo}",
        "本主机已关闭下载（TE_OFFLINE 或 HF_HUB_OFFLINE）。运行本应用的人可以预先获取 {name}："
        "python -m models.pretrained.hub fetch {repo}",
    ),
    "error.hub.invalid": (
        "{repo} is neither a Hugging Face repository id (owner/name) nor a folder with a config.json.",
        "{repo} 既不是 Hugging Face 仓库 id（owner/name），也不是含 config.json 的文件夹。",
    ),
    "error.hub.network": (
        "The Hugging Face Hub could not be reached to download {name}: check the network and try again. Nothing "
        "was kept.",
        "无法连接 Hugging Face Hub 来下载 {name}：请检查网络后重试。没有留下任何文件。",
    ),
    "error.hub.not_found": (
        "The Hub has no repository {repo} (or it is private).",
        "Hub 上没有仓库 {repo}（或者它是私有的）。",
    ),
    "error.hub.gated": (
        "{repo} is gated: accept its terms on the Hub, log in with `hf auth login`, then try again.",
        "{repo} 是受限仓库：请先在 Hub 上接受其条款，用 `hf auth login` 登录，然后重试。",
    ),
    "error.hub.no_weights": (
        "{repo} has no model.safetensors; pickled weights are never read here.",
        "{repo} 没有 model.safetensors；这里从不读取 pickle 格式的权重。",
    ),
    "error.hub.sharded": (
        "{repo} splits its weights over several safetensors files; the app reads a single model.safetensors.",
        "{repo} 把权重分成了多个 safetensors 文件；本应用只读取单个 model.safetensors。",
    ),
    "error.hub.disk": (
        "Not enough disk space for {name}: it needs {need}, {have} are free. Nothing was written.",
        "磁盘空间不足，无法下载 {name}：需要 {need}，只剩 {have}。没有写入任何文件。",
    ),
    "error.hub.interrupted": (
        "The download of {name} stopped half-way. What it had fetched was removed: try again.",
        "{name} 的下载中途停止。已下载的部分已删除：请重试。",
    ),
    "error.hub.architecture": (
        "{repo} is a {found}; the app converts {ours}.",
        "{repo} 的架构是 {found}；本应用能转换的是 {ours}。",
    ),
    "error.hub.option": (
        "{repo} uses an option our class lacks: {option}",
        "{repo} 用到了我们的类没有的选项：{option}",
    ),
    "error.hub.other_page": (
        "{repo} converts into our {arch}, which this page does not show: open a page of that architecture.",
        "{repo} 会转换为我们的 {arch}，本页不展示这种架构：请打开该架构的页面。",
    ),
    "error.hub.memory": (
        "{name} needs about {need} of memory to convert and load; this machine has {have} free.",
        "{name} 转换和载入约需 {need} 内存；本机只有 {have} 可用。",
    ),
    "error.real_missing": (
        "The real model {name} is not on this machine. On a machine with a network, run: {command}",
        "本机没有真实模型 {name}。请在联网的机器上运行：{command}",
    ),
    "picker.label": ("Model", "模型"),
    "picker.help": (
        "Ours: trained here, small enough to read whole. Real: a released pretrained model, converted into the same "
        "code, so every view below works on it.",
        "我们的：在这里训练，小到可以整个读完。真实的：公开发布的预训练模型，转换进同一套代码，下面每个视图都能用在它上面。",
    ),
    "picker.ours": ("{name} · ours, {params:.2g}M parameters", "{name} · 我们训练的，{params:.2g}M 参数"),
    "picker.real": ("{title} · real", "{title} · 真实模型"),
    "picker.absent": (
        "{n} more real models for this page, not on this machine",
        "本页还可用 {n} 个真实模型，本机没有",
    ),
    "picker.absent.how": (
        "Run the command on a machine with a network; the app then finds the model in the local Hugging Face cache "
        "(offline) and converts it once on first use.",
        "在联网的机器上运行对应命令；之后应用会在本地 Hugging Face 缓存中（离线）找到该模型，"
        "并在第一次使用时转换一次。",
    ),
    "picker.download.how": (
        "Or download one here, from the Hugging Face Hub (its safetensors weights, config and tokenizer only, never "
        "pickled files); it is then converted once and becomes the page's model.",
        "也可以在这里从 Hugging Face Hub 下载（只下载 safetensors 权重、配置和分词器，从不下载 pickle 文件）；"
        "下载后转换一次，并成为本页的模型。",
    ),
    "picker.download.ask": ("Download {title}…", "下载 {title}…"),
    "picker.download.about": (
        "{repo}: {size} in {files} files · licence {license}",
        "{repo}：{files} 个文件，共 {size} · 许可证 {license}",
    ),
    "picker.download.gated": (
        "Gated on the Hub: accept its terms there and log in (`hf auth login`) before downloading.",
        "这是 Hub 上的受限模型：下载前请先在 Hub 上接受其条款并登录（`hf auth login`）。",
    ),
    "picker.download.go": ("Download {size}", "下载 {size}"),
    "picker.download.progress": ("Downloading {name}: {done} of {total}", "正在下载 {name}：{done} / {total}"),
    "picker.by_id": ("Any compatible model from the Hugging Face Hub", "Hugging Face Hub 上任何兼容的模型"),
    "picker.by_id.label": ("Repository id", "仓库 id"),
    "picker.by_id.help": (
        "owner/name as on the Hub. It is served here if its config.json names an architecture this page converts "
        "and its weights are one model.safetensors that this machine's memory holds; checked before anything "
        "large is downloaded.",
        "即 Hub 上的 owner/name。若其 config.json 写明的架构是本页能转换的，且权重是单个 model.safetensors、"
        "本机内存放得下，就能在这里使用；大文件下载前会先检查。",
    ),
    "picker.by_id.check": ("Check", "检查"),
    "picker.by_id.about": (
        "{repo}: {size} in {files} files · licence {license} · converts into our {arch}",
        "{repo}：{files} 个文件，共 {size} · 许可证 {license} · 转换为我们的 {arch}",
    ),
    "picker.loading": ("Loading {name}: {what}", "正在加载 {name}：{what}"),
    # the stages a real checkpoint reports while it is converted and loaded (models/pretrained, shared/services)
    "picker.stage.starting": ("starting…", "开始…"),
    "picker.stage.unpacking": ("unpacking the download…", "解压下载的文件…"),
    "picker.stage.reading": ("reading the weights…", "读取权重…"),
    "picker.stage.dequantising": ("dequantising the weights", "反量化权重"),
    "picker.stage.converting": ("converting into our classes…", "转换为我们的代码…"),
    "picker.stage.writing": ("saving the converted copy…", "保存转换后的副本…"),
    "picker.stage.done": ("converted", "转换完成"),
    "picker.stage.loading": ("loading into memory…", "载入内存…"),
    "picker.quantised": (
        "its {types} weights (llama.cpp's 4- and 8-bit blocks) dequantised to float32; a full-precision copy in the "
        "Hugging Face cache would be used instead",
        "其 {types} 权重（llama.cpp 的 4 位和 8 位分块量化）反量化为 float32；"
        "若 Hugging Face 缓存中有全精度版本，会改用它",
    ),
    "picker.step": ("Training step", "训练步"),
    "picker.step.help": (
        "This model's training was recorded: its weights were kept at {n} steps, densely at the start, where "
        "mechanisms form. Every view on the page runs on the weights of the step picked here ({last:,}: the trained "
        "model).",
        "这个模型的训练过程被记录了下来：在 {n} 个训练步保存了权重，开头更密，因为机制往往在那时形成。本页的每个视图"
        "都在这里所选训练步的权重上运行（{last:,}：训练完成的模型）。",
    ),
    "picker.full": ("full precision as released ({dtype})", "发布时的全精度（{dtype}）"),
    "picker.about": (
        "**{title}** · {params:.3g}M parameters · {precision} · licence {license} · from {origin}. "
        "Converted into our own classes; every number below is computed on it now.",
        "**{title}** · {params:.3g}M 参数 · {precision} · 许可证 {license} · 来源 {origin}。"
        "已转换进我们自己的代码；下面每个数字都是现在在它上面算出的。",
    ),
    "error.knock_out": (
        "Nothing to knock out there: pick a part among {parts}, a layer below {layers} and a head below {heads}.",
        "那里没有可敲除的部分：请在 {parts} 中选择部件，层号小于 {layers}，头号小于 {heads}。",
    ),
    "error.model_missing": (
        "The trained model {name} is not installed. Run: python -m models.train {name}",
        "尚未安装训练好的模型 {name}。请运行：python -m models.train {name}",
    ),
    "error.snapshot_missing": (
        "{name} kept no weights at training step {step}. Pick a step its training recorded: {steps}.",
        "{name} 没有保存训练步 {step} 的权重。请选择训练时记录过的步：{steps}。",
    ),
}
