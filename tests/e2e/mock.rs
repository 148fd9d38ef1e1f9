//! A mock model server on 127.0.0.1: a small HTTP/1.1 server that records every request and
//! answers each with what the test's handler decides — a JSON body or a stream of server-sent
//! events. Each client's protocol (Anthropic Messages, OpenAI Responses and Chat Completions,
//! Gemini) is a handler built on this.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

/// One request as the client sent it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path with its query string.
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What the server answers.
pub enum Reply {
    /// A JSON body with this status.
    Json(u16, Value),
    /// `text/event-stream`: `(event name, data)` pairs, each sent as its own event.
    Events(Vec<(Option<String>, String)>),
    /// An empty body with this status.
    Empty(u16),
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running server; it stops accepting when dropped.
pub struct Server {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Server {
    /// Listens on an ephemeral port of 127.0.0.1 and answers every request with `handler`.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (log, stopped) = (Arc::clone(&requests), Arc::clone(&stop));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (handler, log) = (Arc::clone(&handler), Arc::clone(&log));
                std::thread::spawn(move || serve(stream, &*handler, &log));
            }
        });
        Server {
            addr,
            requests,
            stop,
        }
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Answers the requests of one connection until the client closes it.
fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Request>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(300)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Some(request) = read_request(&mut reader) {
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(request.clone());
        let sent = match handler(&request) {
            Reply::Json(status, body) => {
                let body = body.to_string();
                write!(
                    writer,
                    "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\n\r\n{body}",
                    reason(status),
                    body.len()
                )
            }
            Reply::Empty(status) => write!(
                writer,
                "HTTP/1.1 {status} {}\r\ncontent-length: 0\r\n\r\n",
                reason(status)
            ),
            Reply::Events(events) => send_events(&mut writer, &events),
        };
        if sent.and_then(|()| writer.flush()).is_err() {
            return;
        }
    }
}

/// Sends server-sent events in chunked encoding, one chunk per event, so the client sees a stream.
fn send_events(writer: &mut TcpStream, events: &[(Option<String>, String)]) -> std::io::Result<()> {
    write!(
        writer,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\
         transfer-encoding: chunked\r\n\r\n"
    )?;
    for (event, data) in events {
        let mut text = String::new();
        if let Some(event) = event {
            text.push_str(&format!("event: {event}\n"));
        }
        for line in data.split('\n') {
            text.push_str(&format!("data: {line}\n"));
        }
        text.push('\n');
        write!(writer, "{:x}\r\n{text}\r\n", text.len())?;
        writer.flush()?;
    }
    write!(writer, "0\r\n\r\n")
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = header("content-length") {
        body.resize(length.parse().ok()?, 0);
        reader.read_exact(&mut body).ok()?;
    }
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        _ => "Status",
    }
}

#[test]
fn answers_json_and_streams_and_records() {
    let server = Server::start(|request| match request.path.as_str() {
        "/stream" => Reply::Events(vec![
            (Some("one".into()), "{\"a\":1}".into()),
            (None, "two\nlines".into()),
        ]),
        "/json" => Reply::Json(200, request.json()),
        _ => Reply::Empty(404),
    });
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let body = "{\"x\":[1,2]}";
    write!(
        stream,
        "POST /json HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n{body}\
         GET /stream HTTP/1.1\r\nhost: x\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(
        answer.contains("\r\n\r\n{\"x\":[1,2]}HTTP/1.1 200 OK"),
        "{answer}"
    );
    assert!(
        answer.contains("event: one\ndata: {\"a\":1}\n\n")
            && answer.contains("data: two\ndata: lines\n\n"),
        "{answer}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].json()["x"][1], 2);
    assert_eq!(
        (requests[1].method.as_str(), requests[1].path.as_str()),
        ("GET", "/stream")
    );
}
