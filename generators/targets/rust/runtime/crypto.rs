//! SHA-256, HMAC-SHA256 and the strict unpadded base64 the signing schemes use (the `sha2`,
//! `hmac` and `subtle` crates; MACs are compared in constant time).

use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

type HmacSha256 = Hmac<Sha256>;

pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    sha256(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub fn base64_std_nopad(bytes: &[u8]) -> String {
    STANDARD_NO_PAD.encode(bytes)
}

/// Decodes unpadded standard base64, refusing padding, the URL alphabet and non-canonical trailing
/// bits (the `base64` crate's strict engine).
pub fn base64_std_nopad_decode(text: &str) -> Option<Vec<u8>> {
    STANDARD_NO_PAD.decode(text).ok()
}

pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    // HMAC takes keys of any length: new_from_slice cannot fail for it.
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC accepts any key length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// Whether `received` is the HMAC of `message`, compared in constant time.
pub fn hmac_sha256_matches(key: &[u8], message: &[u8], received: &[u8]) -> bool {
    let expected = hmac_sha256(key, message);
    received.len() == expected.len() && bool::from(expected.ct_eq(received))
}
