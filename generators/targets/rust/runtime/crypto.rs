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

/// Appends the unpadded standard base64 of `bytes` to `out`.
pub fn push_base64_std_nopad(bytes: &[u8], out: &mut String) {
    STANDARD_NO_PAD.encode_string(bytes, out);
}

/// Decodes unpadded standard base64, refusing padding, the URL alphabet and non-canonical trailing
/// bits (the `base64` crate's strict engine).
pub fn base64_std_nopad_decode(text: &str) -> Option<Vec<u8>> {
    STANDARD_NO_PAD.decode(text).ok()
}

/// Decodes unpadded standard base64 that must hold exactly 32 bytes (a MAC), without allocating.
pub fn base64_std_nopad_decode_32(text: &str) -> Option<[u8; 32]> {
    // Room for the decoder's length estimate of any text that can hold 32 bytes (43 characters: 33).
    let mut out = [0u8; 48];
    let written = STANDARD_NO_PAD.decode_slice(text, &mut out).ok()?;
    <[u8; 32]>::try_from(&out[..written]).ok()
}

pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    // HMAC takes keys of any length: new_from_slice cannot fail for it.
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC accepts any key length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// An HMAC-SHA256 key prepared once: the `hmac` crate's keyed state holds the hash of the inner and
/// the outer padded key block, so each MAC clones it instead of hashing both pads again (two of the
/// SHA-256 blocks a short message costs). It holds the key material as long as the caller keeps it.
#[derive(Clone)]
pub struct HmacSha256Key {
    keyed: HmacSha256,
    empty: bool,
}

impl HmacSha256Key {
    pub fn new(key: &[u8]) -> Self {
        // HMAC takes keys of any length: new_from_slice cannot fail for it.
        Self { keyed: HmacSha256::new_from_slice(key).expect("HMAC accepts any key length"), empty: key.is_empty() }
    }

    /// Whether the key was empty (signing and verification refuse an empty key).
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    pub fn mac(&self, message: &[u8]) -> [u8; 32] {
        let mut mac = self.keyed.clone();
        mac.update(message);
        mac.finalize().into_bytes().into()
    }

    /// Whether `received` is the HMAC of `message` under this key, compared in constant time.
    pub fn matches(&self, message: &[u8], received: &[u8]) -> bool {
        let expected = self.mac(message);
        received.len() == expected.len() && bool::from(expected.ct_eq(received))
    }
}

impl std::fmt::Debug for HmacSha256Key {
    // Never prints the keyed state, which is derived from the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HmacSha256Key { .. }")
    }
}

/// Whether `received` is the HMAC of `message`, compared in constant time.
pub fn hmac_sha256_matches(key: &[u8], message: &[u8], received: &[u8]) -> bool {
    let expected = hmac_sha256(key, message);
    received.len() == expected.len() && bool::from(expected.ct_eq(received))
}
