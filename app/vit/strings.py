"""Strings of the ViT page (2010.11929)."""

STRINGS = {
    # guided experiment
    "vit.try.do": (
        "Under *Attention from [CLS]* below, set **Head** to {head}, drag the slider under the map to layer {layer}, "
        "and watch *on inked patches* above the map. Then pick a few other held-out digits at the top, and compare "
        "with layer {other_layer}.",
        "在下方“来自 [CLS] 的注意力”中，把**头**设为 {head}，把热图下方的滑块拖到层 {layer}，观察热图上方的"
        "“有笔迹的块”。然后在页面顶部换几个留出集中的数字，再与层 {other_layer} 比较。",
    ),
    "vit.try.see": (
        "At layer {layer}, head {head} the map lights up on the strokes: its share *on inked patches* is far above "
        "the share of patches that hold ink. Over all {n} held-out digits, {share:.0%} of what "
        "this head lets [CLS] read from the patches comes from inked ones, which are only {inked:.0%} of the "
        "patches, and it favours them on {favoured} of the {n}. Other heads do other things: at layer "
        "{other_layer}, head {head} the share is {other:.0%} on average, high on some digits and low on others.",
        "在层 {layer} · 头 {head}，热图亮在笔画上：“有笔迹的块”上的比例远高于有笔迹图像块所占的比例。"
        "在全部 {n} 个留出数字上，这个头让 [CLS] 从图像块读取的信息中平均 {share:.0%} 来自有笔迹的块，而这些块只占 "
        "{inked:.0%}；{n} 个数字中有 {favoured} 个都偏向笔迹。其他头做的事不同：在层 {other_layer} · 头 {head}，"
        "这一比例平均为 {other:.0%}，有的数字高，有的数字低。",
    ),
    "vit.try.why": (
        "[CLS] starts as the same learned vector for every image; it knows only what attention brings it. Nothing "
        "told the model where the ink is: this head learned from the data to gather the patches that carry the digit. "
        "Heads do different jobs, so one head's map is not an explanation of the prediction.",
        "[CLS] 对每张图片都是同一个可学习向量，它知道的只是注意力带给它的信息。没有人告诉模型笔迹在哪里："
        "这个头从数据中学会了收集承载数字的图像块。不同的头分工不同，所以单个头的注意力图并不能解释预测。",
    ),
    # in the paper vs here
    "vit.pvh.data": ("Training data", "训练数据"),
    "vit.pvh.data.paper": (
        "pre-trained on ImageNet (1.3M images), ImageNet-21k (14M) or JFT-300M (303M), then fine-tuned",
        "在 ImageNet（130 万张）、ImageNet-21k（1400 万张）或 JFT-300M（3 亿张）上预训练，再微调",
    ),
    "vit.pvh.data.here": (
        "{train:,} handwritten digits (scikit-learn), trained from scratch",
        "{train:,} 个手写数字（scikit-learn），从零开始训练",
    ),
    "vit.pvh.input": ("Image and patches", "图像与图像块"),
    "vit.pvh.input.paper": (
        "224×224 colour images; ViT-B/16 cuts 16×16 patches: 14×14 = 196 patches + [CLS]",
        "224×224 彩色图像；ViT-B/16 切成 16×16 的块：14×14 = 196 个图像块 + [CLS]",
    ),
    "vit.pvh.input.here": (
        "{image}×{image} gray images, {patch}×{patch} patches: {patches} patches + [CLS]",
        "{image}×{image} 灰度图像，{patch}×{patch} 的块：{patches} 个图像块 + [CLS]",
    ),
    "vit.pvh.size": ("Size", "规模"),
    "vit.pvh.size.paper": (
        "ViT-B/16: 12 layers, width 768, 12 heads, MLP 3072, 86M parameters (ViT-L/16 307M, ViT-H/14 632M)",
        "ViT-B/16：12 层，宽度 768，12 个头，MLP 3072，8600 万参数（ViT-L/16 3.07 亿，ViT-H/14 6.32 亿）",
    ),
    "vit.pvh.size.here": (
        "{layers} layers, width {dim}, {heads} heads, MLP {mlp}, {params:,} parameters",
        "{layers} 层，宽度 {dim}，{heads} 个头，MLP {mlp}，{params:,} 个参数",
    ),
    "vit.pvh.positions": ("Positions", "位置"),
    "vit.pvh.positions.paper": (
        "learned 1-D position embeddings (2-D-aware ones gave no significant gain)",
        "可学习的一维位置嵌入（考虑二维结构的位置嵌入没有带来明显提升）",
    ),
    "vit.pvh.positions.here": ("learned 1-D position embeddings", "可学习的一维位置嵌入"),
    "vit.pvh.result": ("Headline result", "主要结果"),
    "vit.pvh.result.paper": (
        "88.55% top-1 on ImageNet (ViT-H/14 pre-trained on JFT-300M)",
        "ImageNet top-1 准确率 88.55%（在 JFT-300M 上预训练的 ViT-H/14）",
    ),
    "vit.pvh.result.here": ("{acc:.1%} on {test} held-out digits", "在 {test} 个留出数字上准确率 {acc:.1%}"),
    "vit.pvh.dep.scratch": (
        "No pre-training: the model learns from {train:,} images only, helped by small random rotations, scalings "
        "and shifts, label smoothing {smoothing} and dropout {dropout} on the residual branches.",
        "没有预训练：模型只从 {train:,} 张图片中学习，辅以小幅随机旋转、缩放与平移的数据增强、标签平滑 {smoothing} "
        "以及残差分支上的 dropout {dropout}。",
    ),
    "vit.pvh.dep.mlp": (
        "The MLP is {mlp_ratio}× the model width instead of 4×: enough at this size.",
        "MLP 宽度是模型宽度的 {mlp_ratio} 倍，而不是 4 倍：在这个规模上已经够用。",
    ),
    "vit.pvh.dep.gray": (
        "One gray channel instead of three colours, so a patch is {pixels} numbers (768 in ViT-B/16).",
        "只有一个灰度通道而不是三个颜色通道，所以一个图像块是 {pixels} 个数（ViT-B/16 中是 768 个）。",
    ),
    "vit.pvh.dep.head": (
        "The class is read by one linear layer from the final [CLS] (the paper uses an MLP with one hidden layer "
        "while pre-training and a linear layer when fine-tuning). Otherwise as the paper builds it: pre-LN blocks, "
        "GELU, a learnable [CLS], learned position embeddings.",
        "类别由一个线性层从最终的 [CLS] 读出（论文预训练时用带一个隐藏层的 MLP，微调时用线性层）。其余与论文一致："
        "Pre-LN 块、GELU、可学习的 [CLS]、可学习的位置嵌入。",
    ),
    # input
    "vit.source": ("Input", "输入"),
    "vit.source.pick": ("A held-out digit", "留出集中的数字"),
    "vit.source.draw": ("Draw a digit", "手写一个数字"),
    "vit.source.upload": ("Upload an image", "上传图片"),
    "vit.index": ("Held-out image number", "留出集图片编号"),
    "vit.index.help": (
        "Images the model never saw in training: {n} digits, 20% of every class, fixed by a seed. "
        "The model gets these wrong: {wrong}.",
        "模型训练时从未见过的图片：共 {n} 个数字，每类各留出 20%，由随机种子固定。模型答错的编号：{wrong}。",
    ),
    "vit.draw.hint": (
        "Draw one digit, large, in the middle of the box. It is cropped, centred and shrunk like the training data. "
        "About two in three of the training 7s are written with a crossbar ({bar:.0%}): a 7 without one may be "
        "read as 3.",
        "在方框中间写一个大一些的数字。它会像训练数据一样被裁剪、居中并缩小。训练数据中约三分之二的 7 带中间横杠"
        "（{bar:.0%}）：不带横杠的 7 可能被认成 3。",
    ),
    "vit.draw.empty": (
        "Draw a digit in the box to see what the model makes of it.",
        "在方框里写一个数字，看看模型如何理解它。",
    ),
    "vit.draw.unavailable": (
        "Drawing needs the package streamlit-drawable-canvas, which is not installed here. "
        "Pick a held-out digit or upload an image instead.",
        "手写输入需要 streamlit-drawable-canvas 包，但此处未安装。请改为选择留出集中的数字或上传图片。",
    ),
    "vit.upload": (
        "An image of one digit (PNG, JPEG, GIF, BMP, WebP or TIFF, at most {max_mb} MB)",
        "一张只含一个数字的图片（PNG、JPEG、GIF、BMP、WebP 或 TIFF，最大 {max_mb} MB）",
    ),
    "vit.upload.empty": (
        "Upload a picture of a single handwritten digit, dark on light or light on dark.",
        "请上传一张单个手写数字的图片，深色字浅色底或浅色字深色底均可。",
    ),
    "vit.steps": ("Preprocessing, as for the training data", "预处理（与训练数据相同）"),
    "vit.steps.gray": ("grayscale, ink bright", "灰度，笔迹为亮"),
    "vit.steps.cropped": ("cropped to the ink", "裁剪到笔迹"),
    "vit.steps.boxed": ("32×32, centred, strokes evened", "32×32，居中，笔画加粗到训练粗细"),
    "vit.steps.small": ("8×8 block means", "8×8 块均值"),
    "vit.steps.image": ("16×16 model input", "16×16 模型输入"),
    "vit.steps.caption": (
        "The training digits (scikit-learn's load_digits) were made this way: a 32×32 bitmap whose height the digit "
        "fills (its width stays within about 24 pixels), averaged over 4×4 blocks to 8×8; we upsample them to 16×16. "
        "Their writers' strokes are heavy: an 8×8 training digit carries a median ink of {ink} (sum of its cells, "
        "1 = full), so thinner strokes from a pen or the drawing pad are widened step by step towards that.",
        "训练用的数字（scikit-learn 的 load_digits）就是这样生成的：数字占满高度（宽度不超过约 24 像素）的 32×32 "
        "位图，按 4×4 块取平均得到 8×8；我们再把它们放大到 16×16。这些数字的笔画很粗：一张 8×8 训练数字的墨量中位数为 "
        "{ink}（各格之和，1 为满格），所以笔或画板写出的较细笔画会被逐步加粗到接近这个值。",
    ),
    # prediction
    "vit.h.prediction": ("Image, patches and prediction", "图像、图像块与预测"),
    "vit.metric.prediction": ("Prediction", "预测"),
    "vit.metric.probability": ("Probability", "概率"),
    "vit.metric.probability.note": (
        "Trained with label smoothing {smoothing}: the target for the right digit was {ceiling:.0%}, not 100 %, so a "
        "model sure of its answer shows about {ceiling:.0%}. Compare it with the other digits' bars.",
        "训练时使用了标签平滑 {smoothing}：正确数字的目标概率是 {ceiling:.0%} 而不是 100%，所以模型很有把握时"
        "也只显示约 {ceiling:.0%}。请与其他数字的柱子比较。",
    ),
    "vit.metric.label": ("True label", "真实标签"),
    "vit.metric.source": ("load_digits index", "load_digits 索引"),
    "vit.grid.title": ("16×16 image, 4×4 patches", "16×16 图像，4×4 图像块"),
    "vit.probs.x": ("digit", "数字"),
    "vit.probs.y": ("probability", "概率"),
    # sequence
    "vit.h.sequence": ("The sequence the Transformer reads", "Transformer 读入的序列"),
    "vit.sequence.caption": (
        "[CLS] first, then the 16 patches in reading order. Below: each patch flattened to 16 numbers — the columns "
        "that the projection E turns into 64-dimensional tokens.",
        "先是 [CLS]，然后按阅读顺序排列 16 个图像块。下图：每个图像"
        "块展平为 16 个数，这些列经过投影矩阵 E 变成 64 维的词元。",
    ),
    "vit.token": ("token", "词元"),
    "vit.pixel": ("pixel in patch", "块内像素"),
    # embeddings
    "vit.h.embeddings": ("Patch embeddings", "图像块嵌入"),
    "vit.pca.title": ("This image's 16 patch embeddings, PCA to 2-D", "本图 16 个图像块嵌入的二维主成分投影"),
    "vit.pca.x": ("PC 1 ({share:.0%} of variance)", "主成分 1（方差占比 {share:.0%}）"),
    "vit.pca.y": ("PC 2 ({share:.0%} of variance)", "主成分 2（方差占比 {share:.0%}）"),
    "vit.pca.colour": ("ink", "墨量"),
    "vit.filters.title": (
        "The projection E: its filters and their principal components",
        "投影 E：它的滤波器及其主成分",
    ),
    "vit.filters.caption": (
        "Top: E's {C} filters as 4×4 images, strongest first; each gives one coordinate of a patch's embedding. "
        "Bottom: the {k} leading principal components of the filters, which explain {share:.0%} of their variance "
        "(red and blue: opposite signs).",
        "上：E 的 {C} 个滤波器，以 4×4 图像显示，按强度排序；每个滤波器给出图像块嵌入的一个坐标。"
        "下：这些滤波器的前 {k} 个主成分，解释了它们 {share:.0%} 的方差（红与蓝表示符号相反）。",
    ),
    "vit.metric.pca": ("Variance in 2 PCs", "前 2 个主成分的方差占比"),
    # attention
    "vit.h.attention": ("Attention from [CLS]", "来自 [CLS] 的注意力"),
    "vit.layer": ("Layer", "层"),
    "vit.head": ("Head", "头"),
    "vit.head.mean": ("mean of heads", "各头平均"),
    "vit.cls.title": ("[CLS] → patches, layer {layer}, {head}", "[CLS] → 图像块，层 {layer} · {head}"),
    "vit.cls.readout": (
        "peak {peak} · itself {self} · on inked patches {ink}",
        "最大权重 {peak} · 自身 {self} · 有笔迹的块 {ink}",
    ),
    "vit.cls.readout.help": (
        "Above the map: the largest weight [CLS] gives a patch; the weight it gives itself (the patches share the "
        "rest); and, of what it reads from the patches, the share from the {k} of {n} patches holding ink (mean "
        "pixel ≥ {ink}), which would be {k}/{n} if it read every patch alike. Drag the slider under the map to move "
        "through the layers.",
        "热图上方：[CLS] 给单个图像块的最大权重；它给自身的权重（其余权重分给各图像块）；以及它从图像块读取的信息中，"
        "来自 {n} 个块中 {k} 个有笔迹的块（平均像素 ≥ {ink}）的比例——若它平等地读取每个块，则等于 {k}/{n}。"
        "拖动热图下方的滑块可逐层查看。",
    ),
    "vit.layer.n": ("layer {layer}", "层 {layer}"),
    "vit.cls.head": ("head {head}", "头 {head}"),
    "vit.all.title": ("Every layer (rows) and head (columns)", "所有层（行）与头（列）"),
    "vit.metric.cls_peak": ("[CLS] → patch, peak weight", "[CLS] → 图像块，最大权重"),
    "vit.metric.cls_self": ("[CLS] → itself", "[CLS] → 自身"),
    "vit.metric.cls_self.help": (
        "The weight [CLS] gives to itself; the patches share the rest.",
        "[CLS] 给自身的权重；其余权重分给各图像块。",
    ),
    "vit.h.rollout": ("Attention rollout", "注意力展开（rollout）"),
    "vit.fusion": ("Head fusion", "多头融合方式"),
    "vit.fusion.mean": ("mean", "平均"),
    "vit.fusion.max": ("max", "最大"),
    "vit.fusion.min": ("min", "最小"),
    "vit.fusion.help": (
        "mean is the original method (the ViT paper averages the heads); max and min were added by later tools.",
        "mean 是原始方法（ViT 论文对各头取平均）；max 和 min 是后来的工具加上的。",
    ),
    "vit.discard": ("Discard ratio", "丢弃比例"),
    "vit.discard.help": (
        "Share of the weakest attention weights of each layer set to zero before rolling out. Not part of "
        "Abnar & Zuidema's method (0 = the original); later tools added it to sharpen the map.",
        "在展开之前，将每层最弱的这部分注意力权重置零。这不是 Abnar 与 Zuidema 原方法的一部分（0 即原方法）；"
        "是后来的工具为了让图更集中而加上的。",
    ),
    "vit.rollout.title": ("Rollout: [CLS] at the top ← input patches", "展开：顶层 [CLS] ← 输入图像块"),
    "vit.metric.rollout_peak": ("Rollout, peak patch", "展开，最大图像块"),
    "vit.metric.rollout_cls": ("Rollout, kept on [CLS]", "展开，留在 [CLS] 上"),
    "vit.weight": ("weight", "权重"),
    # positions
    "vit.h.positions": ("Position embeddings", "位置嵌入"),
    "vit.positions.title": (
        "Cosine similarity of each patch's position embedding (tile) with every other (cells)",
        "每个图像块位置嵌入（小图）与所有其他位置（格子）的余弦相似度",
    ),
    "vit.positions.row": ("row {r}", "第 {r} 行"),
    "vit.positions.col": ("col {c}", "第 {c} 列"),
    "vit.positions.value": ("cosine", "余弦"),
    "vit.metric.horizontal": ("Left/right neighbours", "左右相邻"),
    "vit.metric.vertical": ("Up/down neighbours", "上下相邻"),
    "vit.metric.same_row": ("Same row", "同一行"),
    "vit.metric.same_col": ("Same column", "同一列"),
    # explanations
    "vit.explain.sequence": (
        "**An image as a sequence of words.** ViT (Dosovitskiy et al., arXiv 2010.11929) cuts an image into "
        "fixed P×P patches — 16×16 pixels in the paper, hence “16x16 words”; 4×4 here, because our digits are "
        "16×16 — flattens each patch and multiplies it by one learned matrix E. The result is a sequence of tokens, "
        "like word embeddings in a sentence. A learnable [CLS] token goes first; after the encoder, its vector is "
        "the only thing the classifier reads. Apart from the patching and the learned position embeddings, nothing "
        "in the model knows that the patches came from a 2-D grid.",
        "**把图像当作一串词。** ViT（Dosovitskiy 等，arXiv 2010.11929）把图像切成固定大小的 P×P 图像块——论文中是 "
        "16×16 像素，故称“16x16 个词”；这里是 4×4，因为我们的数字图像只有 16×16——把每块展平，再乘以同一个可学习矩阵 E。"
        "结果就是一串词元，就像句子里的词嵌入。序列最前面是一个可学"
        "习的 [CLS] 词元；经过编码器后，分类器只读取它的向量。"
        "除了切块和可学习的位置嵌入，模型中没有任何部分知道这些块来自一个二维网格。",
    ),
    "vit.explain.data": (
        "**Why ViT needs lots of data.** A CNN builds in locality and translation equivariance; ViT has almost none "
        "of this and must learn it from examples (§4.3 and Figure 3 of the paper). Pre-trained on ImageNet alone, "
        "the large ViTs do worse than the smaller ones and than ResNets; pre-trained on ImageNet-21k (14M images) "
        "they are about on par with ResNets; only with JFT-300M (303M images) do they show their full benefit and "
        "overtake them. Our model sees only {train:,} training digits, so it is tiny ({params:,} parameters) and "
        "trained with small random rotations, scalings and shifts; it reaches {acc:.1%} on the {test} held-out "
        "digits.",
        "**为什么 ViT 需要大量数据。** CNN 自带局部性与平移等变性的归纳偏置；ViT 几乎没有，只能从样本中学出来"
        "（论文第 4.3 节、图 3）。只在 ImageNet 上预训练时，大型 ViT 不如较小的 ViT，也不如 ResNet；在 ImageNet-21k"
        "（1400 万张图像）上预训练时，与 ResNet 大致持平；只有在 JFT-300M（3 亿张图像）上，大模型的优势才完全显现并"
        "超过 ResNet。我们的模型只见过 {train:,} 个训练数字，所以它很小（{params:,} 个参数），并用随机的小幅旋转、"
        "缩放与平移做数据增强；它在 {test} 个留出数字上的准确率为 {acc:.1%}。",
    ),
    "vit.explain.embeddings": (
        "**Patch embeddings.** Every row of E is a filter applied to each patch. In a large ViT the leading "
        "principal components of these filters look like smooth basis functions (the paper's Figure 7, left). Ours, "
        "learned from {train:,} small images, are far noisier: another sign of how much data ViT's filters need. "
        "In the scatter, each point is one patch of this image after E and before the position embedding: empty "
        "patches land on one spot, patches with strokes spread out by the shape of the stroke.",
        "**图像块嵌入。** E 的每一行都是作用在每个图像块上的一个滤波器。在大型 ViT 中，这些滤波器的前几个主成分"
        "看起来像平滑的基函数（论文图 7 左）。我们的模型只从 {train:,} 张小图中学习，滤波器要嘈杂得多："
        "这再次说明 ViT 的滤波器需要大量数据。散点图中每个点是本图的一个图像块经过 E 之后、加上位置嵌入之前的向量："
        "空白块落在同一处，有笔画的块则按笔画形状分散开。",
    ),
    "vit.explain.attention": (
        "**[CLS] attention.** Row 0 of a layer's attention matrix: how much the [CLS] token reads from each patch, "
        "for one head or the mean of the heads (its weight on itself is the metric beside the peak). Heads differ: "
        "in this model heads 0 and 1 of layer 1 read mostly from the patches with ink, while others spread "
        "over the empty paper too. From layer 1 on, a patch's "
        "vector has already mixed in other patches, so a map shows where [CLS] reads, not exactly which pixels.",
        "**[CLS] 注意力。** 某一层注意力矩阵中 [CLS] 所在的行（行 0）：[CLS] 词元从每个图像块读取多少信息，可以看单个"
        "头，也可以看各头平均（它给自身的权重见最大权重旁边的指标）。各个头不尽相同：在这个模型中，层 1 的头 0 和头 1 "
        "主要读有笔迹的块，另一些头则也分散到空白纸面上。从层 1 开始，每个图像块的向量已经混入了其他块的信息，所以热图"
        "显示的是 [CLS] 从哪里读，而不精确对应哪些像素。",
    ),
    "vit.explain.rollout": (
        "**Attention rollout** (Abnar & Zuidema, arXiv 2005.00928) follows attention through all layers: each "
        "layer's heads are averaged, the identity is added for the residual connection, ½(A + I) is renormalised "
        "row by row, and the layers are multiplied. The ViT paper used it, heads averaged, for its Figure 6: that "
        "is the default here (mean, discard 0). Max and min fusion and the discard ratio (which zeroes each "
        "layer's weakest weights and sharpens the map) are not in the original method; later open-source tools "
        "added them. *What it shows:* where the top [CLS] vector "
        "could have drawn its information from, if tokens mixed only through attention. *What it does not:* it "
        "ignores the MLPs, the value vectors and how large each residual update is; it is the same for every class, "
        "and it is not a causal test of what the prediction depends on.",
        "**注意力展开（rollout）**（Abnar 与 Zuidema，arXiv 2005.00928）沿所有层追踪注意力：先对每层的各个头取平均，"
        "再加上单位矩阵代表残差连接，把 ½(A + I) 按行归一化，然后逐层相乘。ViT 论文图 6 用的就是这种对各头取平均的"
        "方法，也就是这里的默认设置（mean，丢弃比例 0）。max / min 融合和丢弃比例（把每层最弱的权重置零，使图更集中）"
        "不属于原方法，是后来的开源工具加上的。*它显示的是：* 假设词元之间只通过注意力混合，顶层 [CLS] 的信息"
        "可能来自哪些图像块。*它不显示的是：* 它忽略了 MLP、值向量以及每次残差更新的大小；它对所有类别都相同，"
        "也不是对预测依赖什么的因果检验。",
    ),
    "vit.explain.positions": (
        "**Position embeddings.** The model was given {T} independent learned vectors, one per position, and was "
        "never told that the {N} patches form a {g}×{g} grid. Similar vectors mean positions the model treats "
        "alike. After training, left/right neighbours are similar (cosine {h:.2f} on average) and so are patches of "
        "one row ({row:.2f}), but up/down neighbours are not ({v:.2f}), nor patches of one column ({col:.2f}). So "
        "this model learned the rows of the grid and keeps them apart, while it hardly tells the columns of a row "
        "apart. The paper's Figure 7 (centre), from a large ViT trained on far more images, shows rows and "
        "columns both. Why ours may differ (a likely reason, not tested here): the digits are scaled to fill the "
        "box's height but not its width, so the row a stroke sits in says much about the digit (a loop at the top "
        "or at the bottom: 9 or 6), its column less; and with {N} positions, {train:,} images and no pre-training "
        "the model keeps only the layout the task needs.",
        "**位置嵌入。** 模型得到的是 {T} 个相互独立、可学习的向量（每个位置一个），从未被告知这 {N} 个图像块构成 "
        "{g}×{g} 网格。向量相似，意味着模型把这些位置当作差不多。训练之后，左右相邻的位置相似（平均余弦 {h:.2f}），"
        "同一行的位置也相似（{row:.2f}）；但上下相邻的位置并不相似（{v:.2f}），同一列的位置也不相似（{col:.2f}）。"
        "也就是说，这个模型学会了网格的行并把不同的行区分开，却几乎不区分同一行里的各列。论文图 7（中）来自在多得多的"
        "图像上训练的大型 ViT，行和列的结构都很明显。我们的结果为什么不同（一个可能的原因，这里没有验证）：这些数字被"
        "缩放到占满方框的高度而不是宽度，所以笔画在哪一行很能说明是哪个数字（圈在上面还是下面：9 还是 6），在哪一列"
        "则说明得少；而且只有 {N} 个位置、{train:,} 张图片、没有预训练，模型只保留任务需要的布局。",
    ),
    # errors
    "vit.error.empty": ("The file is empty.", "文件是空的。"),
    "vit.error.too_large": (
        "The file is larger than {max_mb} MB. Please upload a smaller image.",
        "文件超过 {max_mb} MB，请上传更小的图片。",
    ),
    "vit.error.too_many_pixels": (
        "The image has too many pixels (over 40 million). Please upload a smaller image.",
        "图片像素过多（超过 4000 万），请上传更小的图片。",
    ),
    "vit.error.not_an_image": (
        "This file could not be read as an image. Please upload a PNG, JPEG, GIF, BMP, WebP or TIFF picture.",
        "无法将该文件读取为图片。请上传 PNG、JPEG、GIF、BMP、WebP 或 TIFF 图片。",
    ),
    "vit.error.no_ink": (
        "No digit found: the image is a single flat colour. Upload a picture with a visible digit.",
        "未找到数字：图片只有一种颜色。请上传一张能看清数字的图片。",
    ),
    "vit.error.bad_shape": ("The image has an unsupported shape.", "不支持该图片的形状。"),
    "vit.error.bad_values": ("The image contains invalid pixel values.", "图片中包含无效的像素值。"),
    "vit.error.bad_image": ("The image could not be prepared for the model.", "无法为模型准备这张图片。"),
    "vit.error.index": (
        "Choose a held-out image number between 0 and {max}.",
        "请选择 0 到 {max} 之间的留出集图片编号。",
    ),
    "vit.error.fusion": (
        "Head fusion must be mean, max or min.",
        "多头融合方式必须是平均（mean）、最大（max）或最小（min）。",
    ),
    # a real checkpoint (Google's ViT-B/16) on photos
    "vit.real.intro": (
        "A released ViT, converted into the code of our digits model: {image}×{image} colour pixels in "
        "{patch}×{patch} patches — a {grid}×{grid} grid of {patches} patches plus [CLS] — {layers} layers of {heads} "
        "heads, width {dim}, {classes} classes. A photo is resized to {image}×{image} and normalised as its "
        "preprocessing says: (x − mean) / std per channel, mean {mean}, std {std}. The digits and the drawing pad "
        "belong to our model; this one reads photos.",
        "一个公开发布的 ViT，转换进我们数字模型的同一套代码：{image}×{image} 彩色像素，切成 {patch}×{patch} 的图像块"
        "——{grid}×{grid} 网格共 {patches} 块，加上 [CLS]——{layers} 层、每层 {heads} 个头、宽度 {dim}、{classes} 个"
        "类别。照片先缩放到 {image}×{image}，再按它的预处理逐通道归一化：(x − 均值) / 标准差，均值 {mean}，标准差 "
        "{std}。手写数字和画板属于我们的模型；这个模型读照片。",
    ),
    "vit.real.source.china": ("Photo: temple", "照片：寺庙"),
    "vit.real.source.flower": ("Photo: flower", "照片：花"),
    "vit.real.source.upload": ("Upload a photo", "上传照片"),
    "vit.real.upload": (
        "A photo (PNG, JPEG, GIF, BMP, WebP or TIFF, at most {max_mb} MB)",
        "一张照片（PNG、JPEG、GIF、BMP、WebP 或 TIFF，最大 {max_mb} MB）",
    ),
    "vit.real.upload.empty": (
        "Upload a photo: it is resized to the model's square input, without cropping.",
        "请上传一张照片：它会被缩放成模型的正方形输入，不裁剪。",
    ),
    "vit.real.grid.title": ("{g}×{g} patches of {p}×{p} pixels", "{g}×{g} 个 {p}×{p} 像素的图像块"),
    "vit.real.top": ("The {k} likeliest of {n} classes", "{n} 个类别中最可能的 {k} 个"),
    "vit.real.classes.caption": (
        "Class names from the checkpoint's own label list (its config.json). The head reads them off the final "
        "[CLS] vector alone; a photo of something outside the {n} classes still gets one of them.",
        "类别名来自检查点自带的标签表（它的 config.json）。分类头只读最后的 [CLS] 向量；照片里的东西即使不在这 {n} "
        "个类别中，也会被归为其中之一。",
    ),
    "vit.real.sequence.caption": (
        "Row {row} of the grid: tokens {first} to {last} of {patches}, which run row by row. Each patch is "
        "flattened to {values} numbers (3 channels × {patch}×{patch} pixels, channel by channel) and projected to "
        "width {dim}; [CLS] goes first, so the encoder reads {tokens} tokens.",
        "网格的第 {row} 行：{patches} 个 token 中的第 {first} 到第 {last} 个（token 按行依次排列）。"
        "每块展平成 {values} 个数（3 个通道 × {patch}×{patch} 像素，逐通道排列），再投影到宽度 {dim}；[CLS] 排在最前，"
        "编码器共读 {tokens} 个 token。",
    ),
    "vit.real.m.tokens": ("Tokens", "token 数"),
    "vit.real.m.values": ("Numbers per patch", "每块的数值个数"),
    "vit.real.m.width": ("Width C", "宽度 C"),
    "vit.real.pcs.caption": (
        "The first {k} principal components of the projection E's filters, each drawn as a colour patch and "
        "stretched to full contrast (the paper's Figure 7, left); together they hold {share:.0%} of the filters' "
        "variance. They look like smooth colour gradients and stripes: a basis for the fine structure inside a patch.",
        "投影 E 的滤波器的前 {k} 个主成分，每个画成一块彩色图像块并拉伸到满对比度（论文图 7 左）；它们合计占滤波器"
        "方差的 {share:.0%}。它们像平滑的颜色渐变和条纹：用来表示块内细节的一组基。",
    ),
    "vit.real.all.caption": (
        "Each tile is one head's [CLS] → patch weights on the grid, one colour scale for all.",
        "每个小图是一个头在网格上的 [CLS] → 图像块权重，所有小图共用一个色标。",
    ),
    "vit.real.explain.attention": (
        "Pick a layer and a head: the map shows how much the [CLS] token reads from each patch of this photo. In a "
        "trained ViT the late layers' [CLS] often rests on the object the class names; early heads spread "
        "evenly or look at a few patches. Past layer 0 every patch vector already holds other patches' information, "
        "so the map says where [CLS] reads, not exactly which pixels matter.",
        "选一层、一个头：热图显示 [CLS] token 从这张照片的每个图像块读取了多少。在训练好的 ViT 里，靠后层的 [CLS] "
        "常落在类别所指的物体上；靠前的头分布均匀，或只看少数几块。从层 0 之后，每个图像块的向量已混入其他块的信息，"
        "所以热图说明 [CLS] 从哪里读，而不精确对应哪些像素重要。",
    ),
    "vit.real.h.distance": ("How far each head looks", "每个头看得多远"),
    "vit.real.distance.y": ("mean attention distance (pixels)", "平均注意力距离（像素）"),
    "vit.real.m.first": ("Layer 0, heads' range (pixels)", "层 0 各头范围（像素）"),
    "vit.real.m.last": ("Last layer, heads' range (pixels)", "最后一层各头范围（像素）"),
    "vit.real.explain.distance": (
        "For each head: the distance in pixels from each patch to the patches it attends to, weighted by the "
        "attention and averaged over the patches — on this photo ({side}×{side} pixels), [CLS] left out. The paper "
        "(Figure 7, right, averaged over 128 images) calls it an analogue of a CNN's receptive field: some heads "
        "look across most of the image already in the lowest layers, others stay local there, and the distance "
        "grows with depth.",
        "对每个头：每个图像块到它所关注的图像块的像素距离，按注意力加权，再对所有图像块取平均——在这张照片上"
        "（{side}×{side} 像素）计算，不含 [CLS]。论文（图 7 右，对 128 张图取平均）把它比作 CNN 的感受野：有些头在"
        "最低几层就已看遍大半张图，另一些头在那里只看局部，而距离随深度增大。",
    ),
    "vit.real.explain.positions": (
        "Each of the {N} tiles is one patch position on the {g}×{g} grid; its cells are the cosine similarity of "
        "that position's learned embedding with every other. In the paper (Figure 7, centre) closer patches have "
        "more similar embeddings, and a row-and-column structure appears: positions in the same row or column "
        "are alike. Nothing told the model the grid is two-dimensional; it learned it from the data.",
        "{N} 个小图各对应 {g}×{g} 网格上的一个图像块位置；小图中的格子是该位置学到的嵌入与其他每个位置的余弦相似度。"
        "在论文中（图 7 中），相距越近的图像块嵌入越相似，并出现行列结构：同一行或同一列的位置彼此相似。没有人告诉"
        "模型网格是二维的；这是它从数据中学到的。",
    ),
    # the intervention: occlusion
    "vit.error.fill": ("Unknown way to blank a patch.", "未知的遮挡方式。"),
    "vit.h.occlusion": ("Intervention: occlude one patch at a time", "干预：每次遮挡一个图块"),
    "vit.occlusion.fill": ("A blanked patch holds", "被遮挡的图块填入"),
    "vit.occlusion.fill.zero": ("zeros", "零"),
    "vit.occlusion.fill.mean": ("the image's mean patch", "整幅图像的平均图块"),
    "vit.occlusion.fill.help": (
        "Zeros are the digits' blank paper. A real model's inputs are normalised as (x − mean) / std with its "
        "preprocessing's mean, so there zero is that mean: for ViT-B/16, 0.5 in every channel, a mid-grey (not the "
        "average colour of its training photos). The mean patch keeps the image's overall brightness, so blanking an "
        "empty patch changes it too.",
        "零就是数字图像的空白纸面。真实模型的输入按预处理的均值做 (x − mean) / std 归一化，所以在那里零就是这个均值："
        "ViT-B/16 每个通道都是 0.5，即中灰色（而不是其训练照片的平均颜色）。平均图块保持整幅图像的亮度，"
        "因此遮挡空白图块也会改变它。",
    ),
    "vit.occlusion.real.ask": (
        "Occlusion runs the model once per patch ({n} forward passes): it starts when you ask.",
        "遮挡需要每个图块运行一次模型（共 {n} 次前向计算）：点击后开始。",
    ),
    "vit.occlusion.run": ("Run occlusion", "运行遮挡"),
    "vit.occlusion.running": ("Blanking the patches one at a time…", "正在逐个遮挡图块……"),
    "vit.occlusion.title": ("Drop of p({cls}) when the patch is blanked", "遮挡该图块后 p({cls}) 的下降"),
    "vit.occlusion.value": ("drop", "下降"),
    "vit.occlusion.rollout": ("Attention rollout (mean fusion)", "注意力展开（平均融合）"),
    "vit.occlusion.p": ("p(predicted), intact", "预测类概率（完整）"),
    "vit.occlusion.p_all": ("… every patch blanked", "……全部图块遮挡"),
    "vit.occlusion.top": ("Largest drop, one patch", "单个图块的最大下降"),
    "vit.occlusion.corr": ("Correlation with rollout", "与注意力展开的相关系数"),
    "vit.occlusion.result": (
        "The model gives **{cls}** a probability of {p:.1%}; with every patch blanked, {p_all:.1%}. One patch alone "
        "matters most at row {row}, column {col}: blanking it takes {top:.3f} off. Over the patches, the occlusion "
        "map and the rollout map correlate at {corr:.2f}.",
        "模型给 **{cls}** 的概率为 {p:.1%}；全部图块遮挡后为 {p_all:.1%}。单个图块中影响最大的是第 {row} 行第 {col} "
        "列：遮挡它使概率下降 {top:.3f}。在所有图块上，遮挡图与注意力展开图的相关系数为 {corr:.2f}。",
    ),
    "vit.occlusion.torch_only": (
        "Interventions run on the torch model: the {backend} backend selected in the sidebar is not used here.",
        "干预只在 torch 模型上运行：此处不使用侧栏所选的 {backend} 后端。",
    ),
    "vit.explain.occlusion": (
        "**Occlusion** (Zeiler & Fergus, arXiv 1311.2901) asks the output, not the attention: blank a patch, run the "
        "model again, and see how much the predicted class loses. Rollout (2005.00928) says where [CLS] draws from; "
        "occlusion says what the answer needs. They need not agree: attention to a patch is not the same as "
        "depending on it (ViT, 2010.11929, §4.5 shows attention maps only). On a digit, expect the large drops on "
        "the strokes that tell it from its look-alikes; a negative drop (shown as 0) means the patch argued against "
        "the class.",
        "**遮挡**（Zeiler & Fergus，arXiv 1311.2901）问的是输出而不是注意力：遮住一个图块，重新运行模型，"
        "看预测类损失多少概率。注意力展开（2005.00928）说明 [CLS] 从哪里取信息；遮挡说明答案依赖什么。"
        "两者未必一致：关注某个图块不等于依赖它（ViT 论文 2010.11929 §4.5 只展示注意力图）。在数字上，"
        "预期大的下降出现在区分它与相似数字的笔画上；下降为负（显示为 0）表示该图块不利于这一类。",
    ),
}
