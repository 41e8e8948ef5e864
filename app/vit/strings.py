"""Strings of the ViT page (2010.11929)."""

STRINGS = {
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
        "Draw one digit, large, in the middle of the box. It is cropped, centred and shrunk like the training data.",
        "在方框中间写一个大一些的数字。它会像训练数据一样被裁剪、居中并缩小。",
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
    "vit.steps.boxed": ("32×32, centred", "32×32，居中"),
    "vit.steps.small": ("8×8 block means", "8×8 块均值"),
    "vit.steps.image": ("16×16 model input", "16×16 模型输入"),
    "vit.steps.caption": (
        "The training digits (scikit-learn's load_digits) were made this way: a 32×32 bitmap whose height the digit "
        "fills (its width stays within about 24 pixels), averaged over 4×4 blocks to 8×8; we upsample them to 16×16.",
        "训练用的数字（scikit-learn 的 load_digits）就是这样生成的：数字占满高度（宽度不超过约 24 像素）的 32×32 "
        "位图，按 4×4 块取平均得到 8×8；我们再把它们放大到 16×16。",
    ),
    # prediction
    "vit.h.prediction": ("Image, patches and prediction", "图像、图像块与预测"),
    "vit.metric.prediction": ("Prediction", "预测"),
    "vit.metric.probability": ("Probability", "概率"),
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
    "vit.cls.title": ("[CLS] → patches, layer {layer}, {head}", "[CLS] → 图像块，第 {layer} 层，{head}"),
    "vit.cls.head": ("head {head}", "头 {head}"),
    "vit.all.title": ("Every layer (rows) and head (columns)", "所有层（行）与头（列）"),
    "vit.metric.cls_peak": ("[CLS] → patch, peak weight", "[CLS] → 图像块，最大权重"),
    "vit.metric.cls_self": ("[CLS] → itself", "[CLS] → 自身"),
    "vit.h.rollout": ("Attention rollout", "注意力展开（rollout）"),
    "vit.fusion": ("Head fusion", "多头融合方式"),
    "vit.discard": ("Discard ratio", "丢弃比例"),
    "vit.discard.help": (
        "Share of the weakest attention weights of each layer set to zero before rolling out.",
        "在展开之前，将每层最弱的这部分注意力权重置零。",
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
    "vit.metric.neighbours": ("Neighbours' similarity", "相邻位置相似度"),
    "vit.metric.distant": ("Distant patches' similarity", "远处位置相似度"),
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
        "of this and must learn it from examples. Trained on ImageNet alone, large ViTs lost to ResNets of the same "
        "cost; pre-trained on 14M (ImageNet-21k) or 303M (JFT-300M) images they won (§4.2, Figure 3 of the paper). "
        "Our model sees only {train} training digits, so it is tiny ({params:,} parameters) and trained with small "
        "random rotations, scalings and shifts; it reaches {acc:.1%} on the {test} held-out digits.",
        "**为什么 ViT 需要大量数据。** CNN 自带局部性与平移等变性的归纳偏置；ViT 几乎没有，只能从样本中学出来。"
        "只在 ImageNet 上训练时，大型 ViT 不如计算量相当的 ResNet；在 1400 万张（ImageNet-21k）或 3 亿张（JFT-300M）"
        "图像上预训练后，ViT 反超（论文第 4.2 节、图 3）。我们的模型只见过 {train} 个训练数字，所以它很小"
        "（{params:,} 个参数），并用随机的小幅旋转、缩放与平移做数据"
        "增强；它在 {test} 个留出数字上的准确率为 {acc:.1%}。",
    ),
    "vit.explain.embeddings": (
        "**Patch embeddings.** Every row of E is a filter applied to each patch. In a large ViT the leading "
        "principal components of these filters look like smooth basis functions (the paper's Figure 7, left). Ours, "
        "learned from 1,438 small images, are far noisier: another sign of how much data ViT's filters need. In the "
        "scatter, each point is one patch of this image after E and before the position embedding: empty patches land "
        "on one spot, patches with strokes spread out by the shape of the stroke.",
        "**图像块嵌入。** E 的每一行都是作用在每个图像块上的一个滤波器。在大型 ViT 中，这些滤波器的前几个主成分"
        "看起来像平滑的基函数（论文图 7 左）。我们的模型只从 1,438 张小图中学习，滤波器要嘈杂得多：这再次说明 ViT 的"
        "滤波器需要大量数据。散点图中每个点是本图的一个图像块经过 E 之后、加上位置嵌入之前的向量：空白块落在同一处，"
        "有笔画的块则按笔画形状分散开。",
    ),
    "vit.explain.attention": (
        "**[CLS] attention.** Row 0 of a layer's attention matrix: how much the [CLS] token reads from each patch, "
        "for one head or the mean of the heads. Heads differ: some spread evenly, others pick out the strokes that "
        "tell this digit apart from its look-alikes.",
        "**[CLS] 注意力。** 某一层注意力矩阵的第 0 行：[CL"
        "S] 词元从每个图像块读取多少信息，可以看单个头，也可以看各头平均。"
        "各个头不尽相同：有的均匀分布，有的专门关注能把这个数字与形近数字区分开的笔画。",
    ),
    "vit.explain.rollout": (
        "**Attention rollout** (Abnar & Zuidema, arXiv 2005.00928; used for Figure 6 of the ViT paper) follows "
        "attention through all layers: each layer's heads are fused (mean, max or min), the identity is added for "
        "the residual connection, ½(A + I) is renormalised, and the layers are multiplied. The discard ratio zeroes "
        "each layer's weakest weights first, which sharpens the map. *What it shows:* where the top [CLS] vector "
        "could have drawn its information from, if tokens mixed only through attention. *What it does not:* it "
        "ignores the MLPs, the value vectors and how large each residual update is; it is the same for every class, "
        "and it is not a causal test of what the prediction depends on.",
        "**注意力展开（rollout）**（Abnar 与 Zuidema，arXiv 2005.00928；ViT 论文图 6 即用此法）沿所有层追踪注意力："
        "先融合每层的各个头（取平均、最大或最小），再加上单位矩阵代表残差连接，把 ½(A + I) 按行归一化，然后逐层相乘。"
        "丢弃比例会先把每层最弱的权重置零，使图更集中。*它显示的是：* 假设词元之间只通过注意力混合，顶层 [CLS] 的信息"
        "可能来自哪些图像块。*它不显示的是：* 它忽略了 MLP、值向量以及每次残差更新的大小；它对所有类别都相同，"
        "也不是对预测依赖什么的因果检验。",
    ),
    "vit.explain.positions": (
        "**Position embeddings.** The model was given 17 independent learned vectors, one per position, and was "
        "never told that the 16 patches form a 4×4 grid. After training, each position's embedding is most similar "
        "to its direct neighbours and to the other positions of its own row: the model learned part of the 2-D "
        "layout from the data (compare Figure 7, centre, of the paper, where rows and columns both show). Here the "
        "columns show only weakly: the metrics on the right measure how much. With 16 positions and 1,438 images "
        "the pattern is coarser than the paper's.",
        "**位置嵌入。** 模型得到的是 17 个相互独立、可学习的向量"
        "（每个位置一个），从未被告知这 16 个图像块构成 4×4 网格。"
        "训练之后，每个位置的嵌入与紧邻的位置以及同一行的其他位置最相似：模型从数据中学到了一部分二维布局"
        "（对照论文图 7 中图，那里行与列的结构都很明显）。这里列的结构只是隐约可见，右侧的指标给出了具体数值。"
        "由于只有 16 个位置和 1,438 张图片，这里的图案比论文中的粗糙。",
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
    "vit.error.fusion": ("Head fusion must be mean, max or min.", "多头融合方式必须是 mean、max 或 min。"),
}
