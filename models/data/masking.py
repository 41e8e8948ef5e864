"""BERT's masked-language-model corruption of a training example (1810.04805, section 3.1 and appendix A.1).

Each position except [CLS], [SEP] and [PAD] is chosen independently with probability 15% (the paper's released code
picks a fixed count per sequence instead, so ours varies around 15%); of those 80% become [MASK], 10% a random
non-special id, 10% stay as they are; the loss looks at the chosen positions only. The bert recipe trains with it,
and the BERT page builds its example with it.
"""

from __future__ import annotations

import numpy as np

from models.data.wordpiece import CLS, MASK, PAD, SEP, SPECIALS

P_CHOSEN, P_MASK, P_RANDOM = 0.15, 0.8, 0.1  # the rest of the chosen (10%) stay unchanged
IGNORE = -100  # label of a position the loss does not see
NOT_CHOSEN, MASKED, RANDOM, KEPT = range(4)  # what happened to each position of a training example


def choose_positions(
    ids: np.ndarray, rng: np.random.Generator, p: float = P_CHOSEN, *, specials: tuple[int, ...] = (PAD, CLS, SEP)
) -> np.ndarray:
    """Bool array like ``ids``: each position except [CLS], [SEP] and [PAD] (``specials``) is chosen with
    probability p."""
    return (rng.random(ids.shape) < p) & ~np.isin(ids, specials)


def mask_tokens(
    ids: np.ndarray,
    rng: np.random.Generator,
    vocab: int,
    p: float = P_CHOSEN,
    *,
    specials: tuple[int, ...] = (PAD, CLS, SEP),
    mask: int = MASK,
    first_ordinary: int = len(SPECIALS),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The paper's corruption of a training example. ``specials``, ``mask`` and ``first_ordinary`` (the first id a
    random replacement may take) default to our WordPiece's ids; another vocabulary (a real BERT's) passes its own.

    Returns:
        inputs: ids with the chosen positions replaced: 80% by [MASK], 10% by a random non-special id,
            10% left as they are;
        labels: the original id at the chosen positions, IGNORE elsewhere (the loss sees only these);
        action: NOT_CHOSEN, MASKED, RANDOM or KEPT at each position.
    """
    chosen = choose_positions(ids, rng, p, specials=specials)
    roll = rng.random(ids.shape)
    action = np.where(roll < P_MASK, MASKED, np.where(roll < P_MASK + P_RANDOM, RANDOM, KEPT))
    action = np.where(chosen, action, NOT_CHOSEN)
    inputs = ids.copy()
    inputs[action == MASKED] = mask
    random_ids = rng.integers(first_ordinary, vocab, size=ids.shape)
    inputs[action == RANDOM] = random_ids[action == RANDOM]
    labels = np.where(chosen, ids, IGNORE)
    return inputs, labels, action
