//! The little of RFC 6455 the job watcher needs (server side): the
//! handshake's accept key, unmasked text/close/pong frames out, and client
//! frames in (masked, as clients must send them), for `job_watch`.

use base64::Engine;
use sha1::{Digest, Sha1};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`.
pub fn accept_key(key: &str) -> String {
    let mut h = Sha1::new();
    h.update(key.trim().as_bytes());
    h.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(h.finalize())
}

/// Opcodes used here.
pub const TEXT: u8 = 0x1;
pub const CLOSE: u8 = 0x8;
pub const PING: u8 = 0x9;
pub const PONG: u8 = 0xA;

/// Largest client frame read (clients send only control frames here).
const MAX_CLIENT_FRAME: u64 = 1 << 20;

/// One final frame with `opcode` and `payload`, unmasked (server to client).
pub fn encode(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 10);
    out.push(0x80 | opcode);
    let n = payload.len();
    if n < 126 {
        out.push(n as u8);
    } else if n <= u16::MAX as usize {
        out.push(126);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(127);
        out.extend_from_slice(&(n as u64).to_be_bytes());
    }
    out.extend_from_slice(payload);
    out
}

/// Writes one frame.
pub async fn send<W: AsyncWrite + Unpin>(w: &mut W, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
    w.write_all(&encode(opcode, payload)).await?;
    w.flush().await
}

/// A close frame with status 1000 (normal closure).
pub async fn send_close<W: AsyncWrite + Unpin>(w: &mut W) -> std::io::Result<()> {
    send(w, CLOSE, &1000u16.to_be_bytes()).await
}

/// Reads one client frame: its opcode and unmasked payload. Fragments are
/// returned one by one (the watcher ignores data frames anyway).
pub async fn read<R: AsyncRead + Unpin>(r: &mut R) -> std::io::Result<(u8, Vec<u8>)> {
    let mut head = [0u8; 2];
    r.read_exact(&mut head).await?;
    let opcode = head[0] & 0x0F;
    let masked = head[1] & 0x80 != 0;
    let mut len = u64::from(head[1] & 0x7F);
    if len == 126 {
        let mut b = [0u8; 2];
        r.read_exact(&mut b).await?;
        len = u64::from(u16::from_be_bytes(b));
    } else if len == 127 {
        let mut b = [0u8; 8];
        r.read_exact(&mut b).await?;
        len = u64::from_be_bytes(b);
    }
    if len > MAX_CLIENT_FRAME {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "frame too large",
        ));
    }
    let mut mask = [0u8; 4];
    if masked {
        r.read_exact(&mut mask).await?;
    }
    let mut payload = vec![0u8; len as usize];
    r.read_exact(&mut payload).await?;
    if masked {
        for (i, b) in payload.iter_mut().enumerate() {
            *b ^= mask[i % 4];
        }
    }
    Ok((opcode, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_key_is_rfc_6455s_example() {
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn lengths_use_the_three_encodings() {
        assert_eq!(encode(TEXT, b"hi"), vec![0x81, 2, b'h', b'i']);
        let mid = encode(TEXT, &[0u8; 300]);
        assert_eq!(&mid[..4], &[0x81, 126, 1, 44]);
        let big = encode(TEXT, &vec![0u8; 70_000]);
        assert_eq!(&big[..10], &[0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
    }

    #[tokio::test]
    async fn reads_a_masked_client_frame() {
        let mask = [1u8, 2, 3, 4];
        let mut frame = vec![0x89, 0x80 | 3];
        frame.extend_from_slice(&mask);
        frame.extend(b"abc".iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        let (op, payload) = read(&mut frame.as_slice()).await.unwrap();
        assert_eq!((op, payload.as_slice()), (PING, &b"abc"[..]));
    }
}
