//! What the machine lets the kernels use.

/// Whether the SIMD kernels may run at all: `false` when the environment variable
/// `BATCHSPEC_DISABLE_SIMD` is set to anything but `0` or an empty string when first asked
/// (read once per process, as NumPy reads `NPY_DISABLE_CPU_FEATURES`). Every kernel then takes
/// its portable path, which gives the same values: a way to compare the two on a machine that
/// has the SIMD instructions, or to rule them out when looking for a fault.
pub fn simd_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| {
        std::env::var_os("BATCHSPEC_DISABLE_SIMD").is_none_or(|v| v.is_empty() || v == "0")
    })
}
