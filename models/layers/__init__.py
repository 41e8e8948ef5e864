"""Shared building blocks of the zoo. Architecture files compose these; they never copy them."""

from models.layers.attention import KVCache, MultiHeadAttention, RollingKVCache, cache_bytes, repeat_kv, tensor_bytes
from models.layers.block import PostNormBlock, PreNormBlock, gpt2_init
from models.layers.decoder import RotaryDecoder
from models.layers.ffn import MLP, SwiGLU, activation
from models.layers.flash import (
    FlashResult,
    IOCount,
    KernelTiming,
    Step,
    block_sizes,
    flash_attention,
    flash_attention_forward,
    flash_io_theorem,
    measure_kernels,
    standard_attention,
    standard_io,
)
from models.layers.masks import causal_mask, padding_mask, sliding_window_mask
from models.layers.norms import LayerNorm, RMSNorm
from models.layers.positions import (
    LearnedPositions,
    RotaryEmbedding,
    SinusoidalPositions,
    T5RelativeBias,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    rope_decay_bound,
    rope_frequencies,
    sinusoidal_table,
    t5_relative_position_bucket,
)

__all__ = [
    "KVCache",
    "cache_bytes",
    "tensor_bytes",
    "MultiHeadAttention",
    "RollingKVCache",
    "PostNormBlock",
    "PreNormBlock",
    "gpt2_init",
    "RotaryDecoder",
    "repeat_kv",
    "MLP",
    "SwiGLU",
    "activation",
    "FlashResult",
    "IOCount",
    "KernelTiming",
    "Step",
    "block_sizes",
    "flash_attention",
    "flash_attention_forward",
    "flash_io_theorem",
    "measure_kernels",
    "standard_attention",
    "standard_io",
    "causal_mask",
    "padding_mask",
    "sliding_window_mask",
    "LayerNorm",
    "RMSNorm",
    "LearnedPositions",
    "RotaryEmbedding",
    "SinusoidalPositions",
    "T5RelativeBias",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "rope_decay_bound",
    "rope_frequencies",
    "sinusoidal_table",
    "t5_relative_position_bucket",
]
