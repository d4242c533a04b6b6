//! Operator-set limits for plugin calls.

/// Operator-set limits for plugin calls.
#[derive(Clone, Debug)]
pub struct RuntimeLimits {
    /// Memory cap per call when a plugin declares none, in MiB.
    pub default_memory_mib: u64,
    /// Highest memory cap any plugin may get, in MiB.
    pub max_memory_mib: u64,
    /// Plugin calls running at once, of formats and of converters each; more
    /// wait their turn. A call waiting on a host capability (`llm`) gives its
    /// slot back while it waits.
    pub max_concurrent_calls: usize,
    /// Address space reserved per linear memory slot, in MiB (at least
    /// `max_memory_mib`). 4096 or more lets compiled code skip bounds checks
    /// (guard pages catch out-of-bounds accesses); less makes every memory
    /// access check its bounds, but the pool reserves far less address space
    /// (e.g. to run the server under valgrind).
    pub memory_reservation_mib: u64,
    /// Bytes of each linear memory kept mapped (and zeroed in place) when an
    /// instance ends, in KiB: the next instance in that slot then skips the
    /// page faults for that much memory; the rest goes back to the kernel.
    /// Higher is faster for large pages and costs resident memory per slot.
    pub keep_resident_kib: usize,
    /// Memory slots no instance uses that the pool keeps warm (mapped, up to
    /// `keep_resident_kib` resident each) for the plugin that last used
    /// them. Past this many, a new instance reuses a warm slot of another
    /// plugin instead of warming a cold one, so idle slots cost at most
    /// `warm_slots × keep_resident_kib` (wasmtime's default, 100, let a
    /// soak with hot swaps warm slot after slot).
    pub warm_slots: u32,
}

/// See [`RuntimeLimits::memory_reservation_mib`]: 4 GiB, wasmtime's default
/// on 64-bit hosts (no bounds checks in compiled code).
pub const DEFAULT_MEMORY_RESERVATION_MIB: u64 = 4096;

/// See [`RuntimeLimits::max_concurrent_calls`]: two per CPU, at least four.
/// Plugin calls are CPU work, so more at once only interleaves them, while
/// every running call holds its instance's memory (up to its cap) until it
/// ends: 32 at once let a burst of decompression bombs and large documents
/// add tens of MiB to the soak's resident memory (docs/ROBUSTNESS.md).
pub fn default_concurrent_calls() -> usize {
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    (2 * cpus).max(4)
}

/// See [`RuntimeLimits::keep_resident_kib`].
pub const DEFAULT_KEEP_RESIDENT_KIB: usize = 2048;

/// See [`RuntimeLimits::warm_slots`].
pub const DEFAULT_WARM_SLOTS: u32 = 16;

impl Default for RuntimeLimits {
    fn default() -> Self {
        RuntimeLimits {
            default_memory_mib: 256,
            max_memory_mib: 1024,
            max_concurrent_calls: default_concurrent_calls(),
            memory_reservation_mib: DEFAULT_MEMORY_RESERVATION_MIB,
            keep_resident_kib: DEFAULT_KEEP_RESIDENT_KIB,
            warm_slots: DEFAULT_WARM_SLOTS,
        }
    }
}

impl RuntimeLimits {
    /// Memory cap for one call, in bytes: a plugin's declaration (if any)
    /// clamped to the operator's maximum.
    pub fn memory_cap_bytes(&self, declared_mib: Option<u32>) -> usize {
        let mib = declared_mib
            .map(u64::from)
            .unwrap_or(self.default_memory_mib)
            .clamp(1, self.max_memory_mib);
        (mib as usize) << 20
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_memory_is_clamped_to_the_operator_maximum() {
        let limits = RuntimeLimits {
            default_memory_mib: 64,
            max_memory_mib: 128,
            max_concurrent_calls: 1,
            ..RuntimeLimits::default()
        };
        assert_eq!(limits.memory_cap_bytes(None), 64 << 20);
        assert_eq!(limits.memory_cap_bytes(Some(100)), 100 << 20);
        assert_eq!(limits.memory_cap_bytes(Some(4096)), 128 << 20);
        assert_eq!(limits.memory_cap_bytes(Some(0)), 1 << 20);
    }
}
