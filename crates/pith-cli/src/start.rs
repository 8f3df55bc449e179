//! What the process was handed before Rust's runtime touched it.
//!
//! Rust's runtime, before `main`, opens `/dev/null` in place of a standard
//! descriptor that was closed, so a closed stdout cannot be told later from
//! one a parent pointed at `/dev/null` (Python's `subprocess.DEVNULL` and
//! Node's `stdio: "ignore"` open it read-write, as the runtime does). The
//! question is asked first: a function the loader runs before any of
//! Rust's start-up code looks at descriptor 1 and notes whether it is open.
//! Where no such hook exists, stdout counts as open.
//!
//! And how memory is asked for: glibc's allocator serves blocks of up to
//! 32 MiB from its heap once a large block has been freed, and keeps that
//! heap when they are freed in turn, so the texts `auto` writes, lets go of
//! and writes again would stay resident; [`tune_allocator`] keeps blocks
//! from 128 KiB up in mappings of their own, given back when freed.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether descriptor 1 was closed when the process was started.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether stdout was closed when the process was started (its output
/// would go nowhere).
pub fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Run by the loader before `main` and before Rust's runtime sets up the
/// standard descriptors: `fcntl(1, F_GETFD)` fails with `EBADF` only when
/// descriptor 1 is not open.
#[cfg(unix)]
extern "C" fn note_stdout() {
    // SAFETY: `fcntl` with `F_GETFD` reads the flags of a descriptor
    // number; it touches no memory and is defined for any number, open or
    // not.
    #[allow(unsafe_code)]
    let flags = unsafe { libc::fcntl(1, libc::F_GETFD) };
    if flags == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// ELF systems run each function listed in `.init_array` before `main`.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris",
))]
#[used]
#[allow(unsafe_code)]
// SAFETY: the section holds pointers to functions the loader calls with
// the C calling convention; `note_stdout` is one, and it needs nothing set
// up (it reads no Rust runtime state and allocates nothing).
#[unsafe(link_section = ".init_array")]
static NOTE_STDOUT: extern "C" fn() = note_stdout;

/// Apple's loader runs each function listed in `__mod_init_func` before `main`.
#[cfg(target_vendor = "apple")]
#[used]
#[allow(unsafe_code)]
// SAFETY: as for `.init_array` above.
#[unsafe(link_section = "__DATA,__mod_init_func")]
static NOTE_STDOUT: extern "C" fn() = note_stdout;

/// Blocks from this many bytes up are mapped on their own (glibc's default
/// threshold, kept from rising as large blocks are freed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_FROM: libc::c_int = 128 << 10;

/// Fixes glibc's threshold for mapping a block on its own at
/// [`MMAP_FROM`] (see the module docs). Called first thing in `main`; a
/// no-op with any other C library.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` takes two integers and changes a setting of
        // the allocator, under its own lock; it reads or writes no memory
        // of ours. It returns 0 if it refuses, and the default then stands.
        #[allow(unsafe_code)]
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_FROM);
        }
    }
}
