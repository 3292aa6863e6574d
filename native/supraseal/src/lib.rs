// SPDX-License-Identifier: Apache-2.0 OR MIT

//! cuseal-supraseal: a C-callable shim over supraseal-c2 0.1.2 (see ../cuseal_supraseal.h for
//! the ABI and the layout rules). Our own code; it only calls supraseal-c2's public SRS type and
//! the C entry point `generate_groth16_proofs_c` that its build links in
//! (supraseal-c2 0.1.2 src/lib.rs and cuda/groth16_cuda.cu).
//!
//! Why not supraseal_c2::generate_groth16_proofs: it panics on a prover error; calling the C
//! entry point directly turns that error into a cuseal_ss_error instead.

// Link blst: supraseal's C++ needs it (see Cargo.toml).
extern crate blst;

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use supraseal_c2::{Assignment, SRS};

pub const ABI_VERSION: u32 = 1;

const OK: c_int = 0;
const EINVAL: c_int = 1;
const ESUPRA: c_int = 2;
const EPANIC: c_int = 3;

/// cuseal_ss_error.
#[repr(C)]
pub struct Error {
    code: c_int,
    message: [c_char; 256],
}

impl Error {
    fn ok() -> Self {
        Error { code: OK, message: [0; 256] }
    }
    fn new(code: c_int, msg: &str) -> Self {
        let mut e = Error { code, message: [0; 256] };
        let b = msg.as_bytes();
        let n = b.len().min(255);
        for (d, s) in e.message[..n].iter_mut().zip(&b[..n]) {
            *d = *s as c_char;
        }
        e
    }
}

/// An Fr element as sppark's host fr_t (blst_256_t): 4 little-endian u64 limbs, Montgomery.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Fr([u64; 4]);

/// cuseal_ss_assignment: field for field supraseal-c2's Assignment<fr_t>.
#[repr(C)]
pub struct CAssignment {
    a_aux_density: *const u64,
    a_aux_bit_len: usize,
    a_aux_popcount: usize,
    b_inp_density: *const u64,
    b_inp_bit_len: usize,
    b_inp_popcount: usize,
    b_aux_density: *const u64,
    b_aux_bit_len: usize,
    b_aux_popcount: usize,
    a: *const Fr,
    b: *const Fr,
    c: *const Fr,
    abc_size: usize,
    inp_assignment_data: *const Fr,
    inp_assignment_size: usize,
    aux_assignment_data: *const Fr,
    aux_assignment_size: usize,
}

// RustError::by_value of sppark's util/rusterror.h: {int code; char* message}, the message
// strdup()ed (or NULL) and owned by the caller.
#[repr(C)]
struct RawError {
    code: c_int,
    message: *mut c_char,
}

extern "C" {
    // supraseal-c2 0.1.2 cuda/groth16_cuda.cu. Not exported by its Rust API except through
    // generate_groth16_proofs, which panics on error.
    fn generate_groth16_proofs_c(
        provers: *const Assignment<Fr>,
        num_circuits: usize,
        r_s: *const Fr,
        s_s: *const Fr,
        proofs: *mut c_void,
        srs: &SRS,
    ) -> RawError;
    // sppark util/all_gpus.cpp: `size_t ngpus()` (C++ linkage; Itanium-mangled name). Counts
    // the devices supraseal uses: compute capability >= 7.0 with cooperative launch.
    #[link_name = "_Z5ngpusv"]
    fn sppark_ngpus() -> usize;
    fn free(p: *mut c_void);
}

fn raw_to_result(e: RawError, what: &str) -> Result<(), Error> {
    if e.code == 0 {
        if !e.message.is_null() {
            unsafe { free(e.message as *mut c_void) };
        }
        return Ok(());
    }
    let msg = if e.message.is_null() {
        format!("{what}: supraseal error code {}", e.code)
    } else {
        let s = unsafe { CStr::from_ptr(e.message) }.to_string_lossy().into_owned();
        unsafe { free(e.message as *mut c_void) };
        format!("{what}: {s} (supraseal error code {})", e.code)
    };
    Err(Error::new(ESUPRA, &msg))
}

fn guard<F: FnOnce() -> Result<(), Error>>(what: &str, f: F) -> Error {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => Error::ok(),
        Ok(Err(e)) => e,
        Err(p) => {
            let m = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Error::new(EPANIC, &format!("{what}: panic: {m}"))
        }
    }
}

#[no_mangle]
pub extern "C" fn cuseal_ss_abi_version() -> u32 {
    ABI_VERSION
}

#[no_mangle]
pub extern "C" fn cuseal_ss_device_count() -> usize {
    catch_unwind(|| unsafe { sppark_ngpus() }).unwrap_or(0)
}

/// Opaque cuseal_ss_srs: a boxed supraseal SRS handle (refcounted on the C++ side).
pub struct SrsHandle(SRS);

#[no_mangle]
pub unsafe extern "C" fn cuseal_ss_srs_load(
    path: *const c_char,
    cache: bool,
    out: *mut *mut SrsHandle,
) -> Error {
    guard("srs load", || {
        if path.is_null() || out.is_null() {
            return Err(Error::new(EINVAL, "srs load: null path or out pointer"));
        }
        *out = std::ptr::null_mut();
        let p = CStr::from_ptr(path)
            .to_str()
            .map_err(|_| Error::new(EINVAL, "srs load: path is not valid UTF-8"))?;
        let srs = SRS::try_new(PathBuf::from(p), cache).map_err(|e| {
            Error::new(ESUPRA, &format!("srs load {p}: {} (code {})", String::from(&e), e.code))
        })?;
        *out = Box::into_raw(Box::new(SrsHandle(srs)));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuseal_ss_srs_free(srs: *mut SrsHandle) {
    if !srs.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(srs))));
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuseal_ss_srs_evict(srs: *const SrsHandle) {
    if !srs.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| (*srs).0.evict()));
    }
}

/// The set bits of the first `bits` bits of words.
fn popcount(words: &[u64], bits: usize) -> usize {
    let full = bits / 64;
    let mut n: usize = words[..full].iter().map(|w| w.count_ones() as usize).sum();
    if bits % 64 != 0 {
        n += (words[full] & ((1u64 << (bits % 64)) - 1)).count_ones() as usize;
    }
    n
}

/// The first `bits` bits of d as a word slice (empty when bits == 0).
unsafe fn density<'a>(d: *const u64, bits: usize, name: &str, k: usize) -> Result<&'a [u64], Error> {
    if bits == 0 {
        return Ok(&[]);
    }
    if d.is_null() {
        return Err(Error::new(EINVAL, &format!("circuit {k}: {name} density is null")));
    }
    Ok(std::slice::from_raw_parts(d, bits.div_ceil(64)))
}

fn same_bits(x: &[u64], y: &[u64], bits: usize) -> bool {
    let full = bits / 64;
    if x[..full] != y[..full] {
        return false;
    }
    bits % 64 == 0 || (x[full] ^ y[full]) & ((1u64 << (bits % 64)) - 1) == 0
}

/// Checks one assignment's internal consistency and returns its three densities.
unsafe fn check(a: &CAssignment, k: usize) -> Result<[&[u64]; 3], Error> {
    let bad = |m: String| Err(Error::new(EINVAL, &format!("circuit {k}: {m}")));
    if a.abc_size == 0 || a.a.is_null() || a.b.is_null() || a.c.is_null() {
        return bad(format!("a, b, c: {} evaluations or a null vector", a.abc_size));
    }
    if a.inp_assignment_size == 0 || a.inp_assignment_data.is_null() {
        return bad("input assignment is empty or null (ONE comes first)".into());
    }
    if a.aux_assignment_size > 0 && a.aux_assignment_data.is_null() {
        return bad("aux assignment is null".into());
    }
    if a.a_aux_bit_len != a.aux_assignment_size || a.b_aux_bit_len != a.aux_assignment_size {
        return bad(format!(
            "aux density bit lengths A {} / B {} differ from the {} aux variables",
            a.a_aux_bit_len, a.b_aux_bit_len, a.aux_assignment_size
        ));
    }
    if a.b_inp_bit_len != a.inp_assignment_size {
        return bad(format!(
            "B-input density has {} bits for {} inputs",
            a.b_inp_bit_len, a.inp_assignment_size
        ));
    }
    let da = density(a.a_aux_density, a.a_aux_bit_len, "A-aux", k)?;
    let dbi = density(a.b_inp_density, a.b_inp_bit_len, "B-input", k)?;
    let dba = density(a.b_aux_density, a.b_aux_bit_len, "B-aux", k)?;
    for (name, d, bits, pop) in [
        ("A-aux", da, a.a_aux_bit_len, a.a_aux_popcount),
        ("B-input", dbi, a.b_inp_bit_len, a.b_inp_popcount),
        ("B-aux", dba, a.b_aux_bit_len, a.b_aux_popcount),
    ] {
        let got = popcount(d, bits);
        if got != pop {
            return bad(format!("{name} density: popcount given as {pop}, its words have {got}"));
        }
    }
    Ok([da, dbi, dba])
}

/// Checks every circuit and that all share circuit 0's sizes and densities: supraseal ORs the
/// tail masks over the batch but compacts the tail bases from circuit 0's densities only.
unsafe fn check_batch(cs: &[CAssignment]) -> Result<(), Error> {
    let d0 = check(&cs[0], 0)?;
    let a0 = &cs[0];
    for (k, a) in cs.iter().enumerate().skip(1) {
        let d = check(a, k)?;
        if a.inp_assignment_size != a0.inp_assignment_size
            || a.aux_assignment_size != a0.aux_assignment_size
            || !same_bits(d[0], d0[0], a.a_aux_bit_len)
            || !same_bits(d[1], d0[1], a.b_inp_bit_len)
            || !same_bits(d[2], d0[2], a.b_aux_bit_len)
        {
            return Err(Error::new(
                EINVAL,
                &format!("circuit {k}: sizes or densities differ from circuit 0's (supraseal needs one circuit shape per call)"),
            ));
        }
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn cuseal_ss_check(assignments: *const CAssignment, n: usize) -> Error {
    guard("check", || {
        if n == 0 {
            return Ok(());
        }
        if assignments.is_null() {
            return Err(Error::new(EINVAL, "check: null assignments"));
        }
        check_batch(std::slice::from_raw_parts(assignments, n))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuseal_ss_prove(
    assignments: *const CAssignment,
    n: usize,
    r: *const Fr,
    s: *const Fr,
    proofs: *mut u8,
    srs: *const SrsHandle,
) -> Error {
    guard("prove", || {
        if n == 0 {
            return Ok(());
        }
        if assignments.is_null() || r.is_null() || s.is_null() || proofs.is_null() || srs.is_null() {
            return Err(Error::new(EINVAL, "prove: null argument"));
        }
        let cs = std::slice::from_raw_parts(assignments, n);
        check_batch(cs)?;
        let provers: Vec<Assignment<Fr>> = cs
            .iter()
            .map(|a| Assignment::<Fr> {
                a_aux_density: a.a_aux_density as *const usize,
                a_aux_bit_len: a.a_aux_bit_len,
                a_aux_popcount: a.a_aux_popcount,
                b_inp_density: a.b_inp_density as *const usize,
                b_inp_bit_len: a.b_inp_bit_len,
                b_inp_popcount: a.b_inp_popcount,
                b_aux_density: a.b_aux_density as *const usize,
                b_aux_bit_len: a.b_aux_bit_len,
                b_aux_popcount: a.b_aux_popcount,
                a: a.a,
                b: a.b,
                c: a.c,
                abc_size: a.abc_size,
                inp_assignment_data: a.inp_assignment_data,
                inp_assignment_size: a.inp_assignment_size,
                aux_assignment_data: a.aux_assignment_data,
                aux_assignment_size: a.aux_assignment_size,
            })
            .collect();
        let e = generate_groth16_proofs_c(provers.as_ptr(), n, r, s, proofs as *mut c_void, &(*srs).0);
        raw_to_result(e, "prove")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        // cuseal_ss_assignment must be supraseal's Assignment<fr_t>, byte for byte.
        assert_eq!(std::mem::size_of::<CAssignment>(), std::mem::size_of::<Assignment<Fr>>());
        assert_eq!(std::mem::size_of::<CAssignment>(), 17 * 8);
        assert_eq!(std::mem::size_of::<Fr>(), 32);
        assert_eq!(std::mem::size_of::<Error>(), 4 + 256);
        assert_eq!(std::mem::size_of::<usize>(), 8, "supraseal density words are 64-bit");
    }

    #[test]
    fn popcounts() {
        let w = [u64::MAX, 0b1011];
        assert_eq!(popcount(&w, 64), 64);
        assert_eq!(popcount(&w, 66), 66);
        assert_eq!(popcount(&w, 67), 66);
        assert_eq!(popcount(&w, 128), 67);
        assert!(same_bits(&[0b0111], &[0b1111], 3));
        assert!(!same_bits(&[0b0111], &[0b1111], 4));
    }

    #[test]
    fn rejects_inconsistent_assignments() {
        let one = Fr([1, 0, 0, 0]);
        let abc = [one; 4];
        let words = [0b11u64];
        let mut a = CAssignment {
            a_aux_density: words.as_ptr(),
            a_aux_bit_len: 2,
            a_aux_popcount: 2,
            b_inp_density: words.as_ptr(),
            b_inp_bit_len: 1,
            b_inp_popcount: 1,
            b_aux_density: words.as_ptr(),
            b_aux_bit_len: 2,
            b_aux_popcount: 2,
            a: abc.as_ptr(),
            b: abc.as_ptr(),
            c: abc.as_ptr(),
            abc_size: 4,
            inp_assignment_data: abc.as_ptr(),
            inp_assignment_size: 1,
            aux_assignment_data: abc.as_ptr(),
            aux_assignment_size: 2,
        };
        unsafe { assert!(check(&a, 0).is_ok()) };
        a.b_aux_popcount = 1;
        let e = unsafe { check(&a, 0) }.err().expect("wrong popcount accepted");
        assert_eq!(e.code, EINVAL);
        a.b_aux_popcount = 2;
        a.a_aux_bit_len = 3;
        assert!(unsafe { check(&a, 0) }.is_err());
        // Null arguments are an error, not a crash.
        let mut proof = [0u8; 384];
        let e = unsafe { cuseal_ss_prove(&a, 1, &one, &one, proof.as_mut_ptr(), std::ptr::null()) };
        assert_eq!(e.code, EINVAL);
    }
}
