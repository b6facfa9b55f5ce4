//! Real servers for the remote-data tests, started and stopped by the tests: moto's
//! S3-compatible server and a plain HTTP server that answers range requests (rangehttpserver),
//! both from PyPI (`.ci/s3 install` puts them in a virtual environment under `target/tools`),
//! each on a free port of the loopback interface; fixtures uploaded with boto3, a real S3
//! client; and a proxy that fails, delays, hangs or cuts chosen requests on their way to a
//! server. Where Python or the package index is missing, the tests say they are skipped, unless
//! `BATCHSPEC_REQUIRE_S3` is set (`.ci/run` sets it).
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The dummy credentials of every test: with no keys the S3 client would ask the cloud's
/// instance-metadata address, and nothing of these tests may leave the loopback interface.
pub const KEYS: [(&str, &str); 4] = [
    ("aws_access_key_id", "testing"),
    ("aws_secret_access_key", "testing"),
    ("aws_region", "us-east-1"),
    ("aws_allow_http", "true"),
];

/// The bin directory of the servers' virtual environment, installed the first time.
fn tools() -> Option<&'static Path> {
    static TOOLS: OnceLock<Option<PathBuf>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/s3");
            let out = Command::new(script).arg("install").output().ok()?;
            let bin = String::from_utf8(out.stdout).ok()?;
            let bin = PathBuf::from(bin.lines().last()?.trim());
            (out.status.success() && bin.join("moto_server").exists()).then_some(bin)
        })
        .as_deref()
}

/// The servers' tools, or `None` after saying the test is skipped (a failure when
/// `BATCHSPEC_REQUIRE_S3` is set).
pub fn tools_or_skip() -> Option<&'static Path> {
    let tools = tools();
    if tools.is_none() {
        assert!(
            std::env::var_os("BATCHSPEC_REQUIRE_S3").is_none(),
            "BATCHSPEC_REQUIRE_S3 is set, and moto cannot be installed here (`.ci/s3 install`)"
        );
        eprintln!("skipped: no S3 server here (`.ci/s3 install` needs python3 with venv and PyPI)");
    }
    tools
}

/// A port for a server to listen on, free when asked: below the kernel's range of ephemeral
/// ports (32768 on, on Linux), so that no socket bound to port 0 meanwhile (a proxy's listener,
/// a client's connection) takes it before the server binds it, and never the same twice in a
/// process (tests run side by side; a port released by one and handed out again would let a
/// second server find the first one listening there, and lose it when the first test ends).
pub fn free_port() -> u16 {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let start = std::process::id() as usize % 1000 * 12;
    for _ in 0..12_000 {
        let port = 20_000 + (start + NEXT.fetch_add(1, Ordering::Relaxed)) % 12_000;
        let port = u16::try_from(port).expect("a port below 32000");
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between 20000 and 31999 on 127.0.0.1");
}

fn wait_for(port: u16) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the server on port {port} did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A server process, killed when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(server_log(self.port));
    }
}

impl Server {
    /// The server's address as a URL.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// Where the server on `port` writes its output (removed when it is dropped): what a failed
/// request to it prints, so that a server that died says why.
fn server_log(port: u16) -> PathBuf {
    std::env::temp_dir().join(format!(
        "batchspec-server-{}-{port}.log",
        std::process::id()
    ))
}

/// The last lines of the output of the server on `port`, for a failure's message.
fn server_output(port: u16) -> String {
    let text = std::fs::read_to_string(server_log(port)).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

/// Whether the server on `port` answers a plain HTTP request with an HTTP status line.
fn answers_http(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let mut head = [0u8; 5];
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_exact(&mut head).is_ok()
        && &head == b"HTTP/"
}

/// `program` of the servers' venv run with `args` and the port (`{port}` in an argument), in
/// `dir`, once it listens (and, when `http`, once it answers an HTTP request); or `None`
/// (skipped). A server that exits before it answers is started again on another port, twice at
/// most, then the failure prints its output.
fn start(program: &str, args: &[&str], dir: &Path, http: bool) -> Option<Server> {
    let bin = tools_or_skip()?;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let port = free_port();
        let port_text = port.to_string();
        let log = std::fs::File::create(server_log(port)).expect("the server's log file");
        let child = Command::new(bin.join(program))
            .args(args.iter().map(|a| {
                if *a == "{port}" {
                    port_text.as_str()
                } else {
                    a
                }
            }))
            .current_dir(dir)
            .stdout(log.try_clone().expect("the server's log file"))
            .stderr(log)
            .spawn()
            .unwrap();
        let mut server = Server { child, port };
        wait_for(port);
        let start = Instant::now();
        while http && !answers_http(port) && start.elapsed() < Duration::from_secs(30) {
            if server.child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // A server that could not bind its port has exited: what answered was something else.
        match server.child.try_wait() {
            Ok(Some(status)) if attempt < 3 => {
                eprintln!(
                    "{program} on port {port} exited ({status}), started again: {}",
                    server_output(port)
                );
            }
            Ok(Some(status)) => panic!(
                "{program} on port {port} exited ({status}) instead of listening: {}",
                server_output(port)
            ),
            _ => {
                assert!(
                    !http || answers_http(port),
                    "{program} on port {port} does not answer HTTP: {}",
                    server_output(port)
                );
                return Some(server);
            }
        }
    }
}

/// moto's S3 server on a free port, or `None` (skipped).
pub fn s3() -> Option<Server> {
    start(
        "moto_server",
        &["-H", "127.0.0.1", "-p", "{port}"],
        &std::env::temp_dir(),
        true,
    )
}

/// rangehttpserver serving `dir` on a free port, or `None` (skipped).
pub fn http(dir: &Path) -> Option<Server> {
    start(
        "python",
        &["-m", "RangeHTTPServer", "{port}", "--bind", "127.0.0.1"],
        dir,
        true,
    )
}

/// The same over TLS, with a self-signed certificate for 127.0.0.1 made on the spot (with
/// `cryptography`, a dependency of moto), or `None` (skipped).
pub fn https(dir: &Path) -> Option<Server> {
    const SERVER: &str = r#"
import datetime, functools, http.server, ipaddress, os, ssl, sys, tempfile
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from RangeHTTPServer import RangeRequestHandler
key = ec.generate_private_key(ec.SECP256R1())
name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
now = datetime.datetime.now(datetime.timezone.utc)
cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
    .public_key(key.public_key()).serial_number(x509.random_serial_number())
    .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
    .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
    .sign(key, hashes.SHA256()))
pem = tempfile.NamedTemporaryFile(suffix=".pem", delete=False)
pem.write(cert.public_bytes(serialization.Encoding.PEM))
pem.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
pem.close()
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(pem.name)
os.unlink(pem.name)  # the key is in the context now: leave no file behind
handler = functools.partial(RangeRequestHandler, directory=sys.argv[2])
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
"#;
    let dir = dir.display().to_string();
    start(
        "python",
        &["-c", SERVER, "{port}", &dir],
        Path::new("."),
        false,
    )
}

/// Runs boto3 (moto's own dependency, a real S3 client) against `endpoint`: `code` sees `s3`.
pub fn boto3(endpoint: &str, code: &str) {
    let bin = tools().expect("the servers' tools");
    let program = format!(
        "import boto3, sys\ns3 = boto3.client('s3', endpoint_url='{endpoint}', aws_access_key_id='testing', aws_secret_access_key='testing', region_name='us-east-1')\n{code}\n"
    );
    let out = Command::new(bin.join("python"))
        .args(["-c", &program])
        .output()
        .unwrap();
    let port = endpoint
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    assert!(
        out.status.success(),
        "boto3 failed: {}\nthe server's output:\n{}",
        String::from_utf8_lossy(&out.stderr),
        server_output(port)
    );
}

/// Creates `bucket` and uploads each `(key, local file)`.
pub fn upload(endpoint: &str, bucket: &str, files: &[(&str, &Path)]) {
    let mut code = format!(
        "try:\n    s3.create_bucket(Bucket='{bucket}')\nexcept s3.exceptions.BucketAlreadyOwnedByYou:\n    pass\n"
    );
    for (key, file) in files {
        code += &format!(
            "s3.upload_file({:?}, '{bucket}', '{key}')\n",
            file.display()
        );
    }
    boto3(endpoint, &code);
}

/// What the proxy does to a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Passed on.
    None,
    /// Answered `503 Service Unavailable` without reaching the server.
    Unavailable,
    /// Held for the duration, then passed on.
    Delay(Duration),
    /// Never answered (the connection stays open).
    Hang,
    /// Answered with the first half of the server's answer, then the connection is closed.
    Cut,
    /// Answered with this status (`403 Forbidden`: a denied request) without reaching the server.
    Status(u16),
}

/// A proxy on a free port in front of `upstream`: each request (one per connection: the proxy
/// closes every connection after its answer) gets the fault `plan` gives its number (from 0).
pub struct Proxy {
    pub port: u16,
    pub requests: Arc<AtomicUsize>,
    pub log: Arc<Mutex<Vec<String>>>,
    /// The most requests the proxy held at once (received, not yet answered).
    pub most_in_flight: Arc<AtomicUsize>,
}

impl Proxy {
    pub fn start(
        upstream: u16,
        plan: impl Fn(usize, &str) -> Fault + Send + Sync + 'static,
    ) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(AtomicUsize::new(0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let plan = Arc::new(plan);
        let most_in_flight = Arc::new(AtomicUsize::new(0));
        let now_in_flight = Arc::new(AtomicUsize::new(0));
        let (counter, lines, most) = (
            Arc::clone(&requests),
            Arc::clone(&log),
            Arc::clone(&most_in_flight),
        );
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let (plan, counter, lines, most, now) = (
                    Arc::clone(&plan),
                    Arc::clone(&counter),
                    Arc::clone(&lines),
                    Arc::clone(&most),
                    Arc::clone(&now_in_flight),
                );
                std::thread::spawn(move || {
                    let held = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(held, Ordering::SeqCst);
                    let _ = serve(client, upstream, &*plan, &counter, &lines);
                    now.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        Proxy {
            port,
            requests,
            log,
            most_in_flight,
        }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// Reads one request (head and body) from `stream`.
fn read_request(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut data = Vec::new();
    let mut byte = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut byte)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        data.extend_from_slice(&byte[..n]);
    };
    let head = String::from_utf8_lossy(&data[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while data.len() < head_end + length {
        let n = stream.read(&mut byte)?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&byte[..n]);
    }
    Ok(data)
}

fn serve(
    mut client: TcpStream,
    upstream: u16,
    plan: &(dyn Fn(usize, &str) -> Fault + Send + Sync),
    counter: &AtomicUsize,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let request = read_request(&mut client)?;
    let text = String::from_utf8_lossy(&request).into_owned();
    let first = text.lines().next().unwrap_or("").to_owned();
    let range = text
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("range:"))
        .unwrap_or("")
        .to_owned();
    let n = counter.fetch_add(1, Ordering::SeqCst);
    let fault = plan(n, &first);
    log.lock()
        .unwrap()
        .push(format!("{n} {first} {range} {fault:?}"));
    match fault {
        Fault::Unavailable => {
            client.write_all(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            )?;
            return client.shutdown(Shutdown::Both);
        }
        Fault::Status(code) => {
            client.write_all(
                format!(
                    "HTTP/1.1 {code} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
                .as_bytes(),
            )?;
            return client.shutdown(Shutdown::Both);
        }
        Fault::Hang => {
            std::thread::sleep(Duration::from_secs(600));
            return Ok(());
        }
        Fault::Delay(d) => std::thread::sleep(d),
        Fault::None | Fault::Cut => {}
    }
    // One request per connection: the proxy asks the server to close after its answer.
    let head_end = request.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&request[..head_end]);
    let mut rewritten: String = head
        .split("\r\n")
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:") && !l.is_empty())
        .map(|l| format!("{l}\r\n"))
        .collect();
    rewritten += "Connection: close\r\n\r\n";
    let mut server = TcpStream::connect(("127.0.0.1", upstream))?;
    server.write_all(rewritten.as_bytes())?;
    server.write_all(&request[head_end..])?;
    let mut answer = Vec::new();
    server.read_to_end(&mut answer)?;
    if fault == Fault::Cut {
        client.write_all(&answer[..answer.len() / 2])?;
    } else {
        client.write_all(&answer)?;
    }
    client.shutdown(Shutdown::Both)
}
