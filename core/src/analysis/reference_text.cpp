// The reference script's wording, extracted from compare-backward-state.py: do not edit by hand.
#include "dumpscope/reference_text.h"

namespace dumpscope::reference_text {

std::string_view allEqual() {
    return R"ref(VERDICT: all dumped backward-pipeline buffers match across
all dumped steps. The bug is OUTSIDE Groups G/H/I/J. Per
the Phase 2.6 dispatch STOP rule: this is an UNEXPECTED
finding (the 4 groups were chosen to enumerate the entire
step-2 backward pipeline). Possibilities:
  - Adam optimizer step is non-deterministic (parallel
    reduction in moment update)
  - Bellman target projection has order-dependent writes
  - A reducer kernel writes scratch BEFORE Group I dump
    captures it (race between dump and last reducer launch)
Phase 2.7 dispatch needed — STOP per
feedback_systematic_debugging.)ref";
}

std::string_view gOnly() {
    return R"ref(  Group G (PER replay sample) is the ONLY divergent group.
  → step-2 PER K-loop sample IS the bug, despite Phase 2.5's
    end-of-step PER state EQUAL. Most likely: the K-loop's
    rl_per_sample is reading from `replay_h_t_d` /
    `replay_h_tp1_d` which were written by a non-deterministic
    `rl_per_push_ring`/flush kernel earlier in step 2. Inspect
    `rl_per_push_ring.cu` and `rl_per_push_flush.cu` for
    parallel-reduction / atomicAdd patterns. (Aliased pearl-
    twin to Phase 2's PER tree rebuild bug.))ref";
}

std::string_view hWithoutG() {
    return R"ref(  Group H (head fwd outputs) diverges with EQUAL Group G.
  → head forward kernel is non-det. Most likely candidate:
    NoisyLinear noise resampling (factored noise) between
    online forward and target forward, especially if the
    resampling kernel uses parallel write to shared state
    or if cuBLAS PEDANTIC isn't actually active (sanity-
    check `[cublas_determinism]` line in run logs). Less
    likely but possible: IQN tau sampling order across the
    K-loop, or NoisyLinear reset_noise + forward overlap.
  → check rl_iqn_forward / rl_noisy_linear_forward for
    parallel-reduction or atomic patterns; verify cuBLAS
    handle's math mode is CUBLAS_PEDANTIC_MATH at every
    site (mamba2_block, dqn, iqn — 3 sites).)ref";
}

std::string_view iDiverges() {
    return R"ref(  Group I (pre-reduce per-batch/per-row grad scratches)
  diverges. → upstream per-batch backward kernel is non-det.
  Candidates by scratch:
    cfc_grad_*_scratch → cfc_step_backward_batched
    vsn_grad_*_scratch → variable_selection_bwd
    attn_grad_q_scratch → attention_pool_bwd
    grad_ln_*_per_row → layer_norm_bwd
  Inspect which scratch's first divergence is the most
  upstream (smallest k_iter or smallest n_rows index).
  Look for parallel reductions with __threadfence (not
  __syncthreads), atomicAdd, or warp-shuffle ordering
  issues. Canonical Phase-2 fix: single block + __syncthreads
  + fixed thread-ID accumulation order.)ref";
}

std::string_view jWithoutI() {
    return R"ref(  Group J (per-head grad_h_t) diverges with EQUAL Group I.
  → `grad_h_accumulate_scaled` or a head backward writing
    grad_h_t (without scratch reduction) is the culprit.
  → check grad_h_accumulate.cu: should be sole-writer-per-i
    (element-wise `+=`). If λ is host-passed scalar, host-
    side ISV mirror read should be order-stable. Also check
    head bwd kernels (dqn_grad_w_b_h_t / pi_head_bwd / v_head_
    bwd / iqn_bwd_relu_hadamard) — they all write grad_h_t
    as OVERWRITE per (b, c) sole writer; if any uses `+=`
    with parallel writes, that's the bug.)ref";
}

std::string_view unexpected() {
    return R"ref(
  WARNING: divergent group(s) not in expected G/H/I/J set
  → unexpected finding, STOP per dispatch rule.)ref";
}

std::string_view crossCheck() {
    return R"ref(
  Cross-check: if mamba2 dump shows final trunk grads (post-
  reduce) DIVERGE but Group I scratches above are EQUAL → the
  reducer kernel itself (`reduce_axis0` or
  `layer_norm_reduce_param_grads`) is the bug. Apply canonical
  Phase-2-PER-rebuild fix: single block + __syncthreads +
  fixed thread-ID accumulation order, no __threadfence.)ref";
}

} // namespace dumpscope::reference_text
