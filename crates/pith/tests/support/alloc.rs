//! A counting global allocator, shared by the memory test and the codec
//! and memory benches: live heap bytes and their high-water mark (bytes
//! asked for; the system allocator's own overhead is not counted), and the
//! live bytes again as glibc's chunks hold them.

#![allow(unsafe_code)] // the allocator's contract is unsafe by nature
#![allow(dead_code)] // each user takes the parts it needs

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live heap bytes and their high-water mark.
pub struct Counting;

pub static LIVE: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Allocations made (calls to `alloc`), ever.
pub static CALLS: AtomicUsize = AtomicUsize::new(0);
/// Live heap bytes in the chunks glibc's malloc takes for them (see
/// [`chunk`]).
pub static CHUNKED: AtomicUsize = AtomicUsize::new(0);

/// The chunk glibc's malloc takes for `n` bytes on a 64-bit target: the
/// request and an 8-byte header, rounded up to 16, and 32 at least.
fn chunk(n: usize) -> usize {
    (n.saturating_add(8 + 15) & !15).max(32)
}

// SAFETY: every call forwards to the system allocator unchanged; the counters
// are plain atomics updated after it succeeds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            CALLS.fetch_add(1, Ordering::Relaxed);
            CHUNKED.fetch_add(chunk(layout.size()), Ordering::Relaxed);
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        CHUNKED.fetch_sub(chunk(layout.size()), Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CHUNKED.fetch_sub(chunk(layout.size()), Ordering::Relaxed);
            CHUNKED.fetch_add(chunk(new_size), Ordering::Relaxed);
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                    + (new_size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The peak heap growth while `f` runs, in bytes.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - before)
}

/// The allocations `f` makes.
pub fn allocations_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = CALLS.load(Ordering::Relaxed);
    let out = f();
    (out, CALLS.load(Ordering::Relaxed) - before)
}
