//! The seccomp filter of a command that may not create sockets, compiled by `seccompiler`
//! and handed to bwrap (`--seccomp FD`), which installs it right before the command runs.
//!
//! It refuses, with `EACCES`, the two ways a process gets a new socket: `socket(2)` (every
//! domain: TCP, UDP, unix — also a unix socket on a path that a read-only file system cannot
//! stop — netlink, raw) and `io_uring_setup(2)` (an io_uring can open sockets of its own). On
//! x86_64 the same calls through the x32 ABI (numbers with bit 30 set) are refused too; a
//! call from another architecture (32-bit code through `int 0x80`) kills the process, as
//! seccompiler's architecture check does. `socketpair(2)` stays allowed: its two ends reach
//! only each other. What it does not cover: sockets the process already holds — none, as
//! every descriptor above 2 is closed before the command runs
//! ([`close_inherited`](super::descriptors::close_inherited)).

use std::collections::BTreeMap;

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

/// The x32 ABI's mark on a system call number (x86_64 only).
#[cfg(target_arch = "x86_64")]
const X32_SYSCALL_BIT: i64 = 0x4000_0000;

/// The system calls refused.
fn refused() -> Vec<i64> {
    let calls = [libc::SYS_socket, libc::SYS_io_uring_setup];
    #[cfg(target_arch = "x86_64")]
    let calls: Vec<i64> = calls
        .iter()
        .flat_map(|&call| [call, call | X32_SYSCALL_BIT])
        .collect();
    calls.to_vec()
}

/// The filter as bwrap reads it: the `struct sock_filter` array, in this machine's byte order.
pub(super) fn no_sockets() -> Result<Vec<u8>, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|error| format!("no seccomp filter for this architecture: {error}"))?;
    let rules = refused()
        .into_iter()
        .map(|call| (call, Vec::new()))
        .collect::<BTreeMap<_, _>>();
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(|error| format!("the seccomp filter: {error}"))?;
    let program: BpfProgram = filter
        .try_into()
        .map_err(|error| format!("the seccomp filter: {error}"))?;
    let mut bytes = Vec::with_capacity(program.len() * 8);
    for instruction in &program {
        bytes.extend_from_slice(&instruction.code.to_ne_bytes());
        bytes.push(instruction.jt);
        bytes.push(instruction.jf);
        bytes.extend_from_slice(&instruction.k.to_ne_bytes());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_compiles_to_whole_instructions() {
        let bytes = no_sockets().unwrap();
        assert!(!bytes.is_empty());
        assert_eq!(bytes.len() % 8, 0);
    }
}
