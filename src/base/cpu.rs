//! What this CPU has for the vector kernels, looked up once: the best of AVX-512 and
//! AVX2 it has, unless `NIMKIT_SIMD=avx512`, `avx2` or `scalar` forces a path (one
//! the CPU has), so that each path is tested and measured on any machine. Every
//! kernel asks here.
use std::sync::OnceLock;

/// A vector path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Avx512,
    Avx2,
    Scalar,
}

impl Path {
    /// Whether this CPU can take the path.
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Path::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
                Path::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
                Path::Scalar => true,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Path::Scalar
        }
    }
}

/// The path this process takes: `NIMKIT_SIMD`'s where the CPU has it, else the
/// best the CPU has. The batch kernels follow it too (`avx2`: no AVX-512 remainders
/// of wide heaps; `scalar`: no AVX2 copies either), so that a forced run stands for a
/// machine without those extensions.
pub fn path() -> Path {
    static PATH: OnceLock<Path> = OnceLock::new();
    *PATH.get_or_init(|| {
        let forced = match std::env::var("NIMKIT_SIMD").as_deref() {
            Ok("avx512") => Some(Path::Avx512),
            Ok("avx2") => Some(Path::Avx2),
            Ok("scalar") => Some(Path::Scalar),
            _ => None,
        };
        forced
            .filter(|p| p.supported())
            .or_else(|| {
                [Path::Avx512, Path::Avx2]
                    .into_iter()
                    .find(|p| p.supported())
            })
            .unwrap_or(Path::Scalar)
    })
}

/// Whether the AVX2 kernels may run: the CPU has AVX2 and the path is not forced to
/// `scalar`.
pub fn avx2() -> bool {
    path() != Path::Scalar && Path::Avx2.supported()
}

/// Whether the CPU has AVX-512F and DQ (conversions between 64-bit integers and
/// doubles).
pub fn avx512_dq() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the CPU has AVX2 and FMA.
pub fn avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}
