//! `pith mcp --url`: the client speaks stdio to pith, pith speaks MCP's
//! streamable HTTP transport to a remote server.
//!
//! Every message from the client is POSTed to the URL (`Accept:
//! application/json, text/event-stream`); the answer is one JSON body, an
//! SSE stream of messages, or `202 Accepted`. The `Mcp-Session-Id` the
//! server hands out with its `initialize` answer goes with every later
//! request, and so does `MCP-Protocol-Version`; after `initialized` a GET
//! stream carries the server's own requests and notifications. A stream
//! that breaks before its answers arrived is resumed with `Last-Event-ID`
//! when the server numbers its events, and the requests it still owed get
//! a JSON-RPC error otherwise. A session the server forgot (`404`) is
//! opened again with the client's own `initialize`, and the request sent
//! again once. A server that only has the older HTTP+SSE transport (the
//! first POST refused with 400, 404 or 405, a GET opening an `endpoint`
//! event) is spoken to that way. On exit the session is ended with DELETE.
//! Every line the server side produces goes to the same pump as a stdio
//! server's, so rewriting and budgets are the same.
//!
//! TLS is rustls with the system's roots. Header values may name
//! environment variables (`${GITHUB_TOKEN}`), read when pith starts.

use crate::envelope::{Frame, scan, string_value};
use crate::proxy::error_response;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Method, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinSet;

/// A remote server: its URL and the headers to send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// The MCP endpoint, `http://` or `https://`.
    pub url: String,
    /// Headers sent with every request, values as given (`${VAR}` read
    /// from the environment by [`Remote::new`]).
    pub headers: Vec<(String, String)>,
}

/// Why a remote server cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteError(pub String);

impl std::fmt::Display for RemoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RemoteError {}

impl Remote {
    /// A remote at `url` with `headers` given as `Name: value`, each
    /// `${VAR}` in a value replaced by that environment variable.
    pub fn new(url: &str, headers: &[String]) -> Result<Remote, RemoteError> {
        let uri: Uri = url
            .parse()
            .map_err(|e| RemoteError(format!("invalid --url `{url}`: {e}")))?;
        if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
            return Err(RemoteError(format!(
                "invalid --url `{url}`: expected an http:// or https:// URL"
            )));
        }
        let mut out = Vec::with_capacity(headers.len());
        for h in headers {
            let Some((name, value)) = h.split_once(':') else {
                return Err(RemoteError(format!(
                    "invalid --header `{h}`: expected `Name: value`"
                )));
            };
            let name = name.trim();
            let value = expand(value.trim(), name)?;
            HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| RemoteError(format!("invalid --header name `{name}`")))?;
            HeaderValue::from_str(&value).map_err(|_| {
                RemoteError(format!(
                    "invalid --header `{name}`: the value has a control character"
                ))
            })?;
            out.push((name.to_owned(), value));
        }
        Ok(Remote {
            url: url.to_owned(),
            headers: out,
        })
    }
}

/// `value` with each `${VAR}` replaced by the environment variable `VAR`.
pub fn expand(value: &str, header: &str) -> Result<String, RemoteError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let Some(end) = rest[i + 2..].find('}') else {
            return Err(RemoteError(format!(
                "invalid --header `{header}`: `${{` without a closing `}}`"
            )));
        };
        let var = &rest[i + 2..i + 2 + end];
        match std::env::var(var) {
            Ok(v) => out.push_str(&v),
            Err(_) => {
                return Err(RemoteError(format!(
                    "--header `{header}` names the environment variable {var}, which is not set"
                )));
            }
        }
        rest = &rest[i + 3 + end..];
    }
    out.push_str(rest);
    Ok(out)
}

type Http = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// How many times a broken stream is resumed before its requests fail.
const RESUMES: usize = 3;

/// The link to the remote server, shared by the tasks that send to it.
pub(crate) struct Link {
    http: Http,
    url: Uri,
    headers: Vec<(HeaderName, HeaderValue)>,
    /// Where the server's messages go, one line each.
    out: UnboundedSender<Vec<u8>>,
    session: Mutex<Session>,
    /// Serializes opening a session again.
    reopen: tokio::sync::Mutex<()>,
    closing: std::sync::atomic::AtomicBool,
    /// The reader of an HTTP+SSE server's stream.
    legacy_reader: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

#[derive(Default)]
struct Session {
    id: Option<String>,
    version: Option<String>,
    /// The client's `initialize` and `initialized`, to open the session again.
    init: Option<Vec<u8>>,
    initialized: Option<Vec<u8>>,
    /// Where messages are POSTed when the server speaks HTTP+SSE.
    legacy: Option<Uri>,
}

/// What a line from the client is.
struct Outgoing {
    /// Raw ids of the requests in it, which want answers.
    ids: Vec<Vec<u8>>,
    method: Option<String>,
}

fn outgoing(line: &[u8]) -> Outgoing {
    let mut o = Outgoing {
        ids: Vec::new(),
        method: None,
    };
    let mut add = |env: &crate::envelope::Envelope<'_>| {
        let method = env.method.and_then(string_value);
        if let (Some(id), Some(_)) = (env.id, &method) {
            o.ids.push(id.to_vec());
        }
        if o.method.is_none() {
            o.method = method;
        }
    };
    match scan(line) {
        Frame::Single(env) => add(&env),
        Frame::Batch(envs) => envs.iter().for_each(&mut add),
        Frame::Opaque => {}
    }
    o
}

impl Link {
    pub fn new(remote: &Remote, out: UnboundedSender<Vec<u8>>) -> Result<Arc<Link>, RemoteError> {
        let url: Uri = remote
            .url
            .parse()
            .map_err(|e| RemoteError(format!("invalid --url: {e}")))?;
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(Duration::from_secs(10)));
        connector.enforce_http(false);
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(rustls::crypto::ring::default_provider())
            .map_err(|e| RemoteError(format!("cannot load the system's TLS roots: {e}")))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(connector);
        let http = Client::builder(TokioExecutor::new()).build(https);
        let headers = remote
            .headers
            .iter()
            .filter_map(|(k, v)| {
                Some((
                    HeaderName::from_bytes(k.as_bytes()).ok()?,
                    HeaderValue::from_str(v).ok()?,
                ))
            })
            .collect();
        Ok(Arc::new(Link {
            http,
            url,
            headers,
            out,
            session: Mutex::new(Session::default()),
            reopen: tokio::sync::Mutex::new(()),
            closing: std::sync::atomic::AtomicBool::new(false),
            legacy_reader: Mutex::new(None),
        }))
    }

    /// Sends every line `input` yields, until it ends; then ends the
    /// session (after `grace` for answers still on their way).
    pub async fn run<R: AsyncRead + Unpin>(self: Arc<Self>, input: R, grace: Duration) {
        let mut reader = BufReader::new(input);
        let mut line = Vec::new();
        let mut running = JoinSet::new();
        let mut listening = false;
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let msg = outgoing(&line);
            match msg.method.as_deref() {
                // Until the session is open, one message at a time.
                Some("initialize") => {
                    lock(&self.session).init = Some(line.clone());
                    self.clone().send(line.clone(), msg.ids).await;
                }
                Some("notifications/initialized") => {
                    lock(&self.session).initialized = Some(line.clone());
                    self.clone().send(line.clone(), msg.ids).await;
                    if !listening {
                        listening = true;
                        running.spawn(self.clone().listen());
                    }
                }
                _ => {
                    running.spawn(self.clone().send(line.clone(), msg.ids));
                }
            }
            while running.try_join_next().is_some() {}
        }
        self.closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        // Answers still on their way get a grace period, then the session ends.
        let _ = tokio::time::timeout(grace, async {
            // The GET stream never ends by itself: only POSTs are waited for.
            while running.len() > usize::from(listening) {
                if running.join_next().await.is_none() {
                    break;
                }
            }
        })
        .await;
        running.abort_all();
        self.end_session().await;
    }

    /// POSTs one line and delivers what comes back; the requests in it
    /// that get no answer get an error.
    async fn send(self: Arc<Self>, line: Vec<u8>, ids: Vec<Vec<u8>>) {
        let mut retried = false;
        loop {
            let (url, session) = {
                let s = lock(&self.session);
                (
                    s.legacy.clone().unwrap_or_else(|| self.url.clone()),
                    s.id.clone(),
                )
            };
            let legacy = url != self.url;
            let resp = match self
                .request(Method::POST, &url, Some(line.clone()), None)
                .await
            {
                Ok(r) => r,
                Err(e) => return self.fail(&ids, &format!("cannot reach {}: {e}", self.url)),
            };
            let status = resp.status();
            if let Some(id) = header(&resp, "mcp-session-id") {
                lock(&self.session).id = Some(id);
            }
            if status == StatusCode::NOT_FOUND && session.is_some() && !retried && !is_init(&line) {
                // The server forgot the session: open it again, send again.
                retried = true;
                if let Err(e) = self.reopen(session).await {
                    return self.fail(&ids, &e);
                }
                continue;
            }
            if is_init(&line)
                && !legacy
                && matches!(
                    status,
                    StatusCode::BAD_REQUEST
                        | StatusCode::NOT_FOUND
                        | StatusCode::METHOD_NOT_ALLOWED
                )
                && self.clone().open_legacy().await
            {
                continue;
            }
            if !status.is_success() {
                let body = read_text(resp).await;
                return self.fail(
                    &ids,
                    &format!("HTTP {status} from {}: {}", self.url, snippet(&body)),
                );
            }
            if legacy || status == StatusCode::ACCEPTED || ids.is_empty() {
                // Answers come on the SSE stream (or none are owed).
                let _ = resp.into_body().collect().await;
                return;
            }
            let mut owed: HashSet<String> = ids.iter().filter_map(|i| canonical(i)).collect();
            if is_sse(&resp) {
                let mut last = self
                    .stream(resp.into_body(), &mut owed, is_init(&line))
                    .await;
                let mut tries = 0;
                while !owed.is_empty()
                    && tries < RESUMES
                    && !self.closing.load(std::sync::atomic::Ordering::SeqCst)
                {
                    // Resumed on a GET, from the last event seen.
                    let Some(from) = last.clone() else { break };
                    tries += 1;
                    match self
                        .request(Method::GET, &self.url, None, Some(&from))
                        .await
                    {
                        Ok(r) if r.status().is_success() && is_sse(&r) => {
                            last = self.stream(r.into_body(), &mut owed, false).await.or(last);
                        }
                        _ => tokio::time::sleep(Duration::from_millis(200)).await,
                    }
                }
                self.fail_owed(ids, &owed, "closed the stream before answering");
            } else {
                let body = match resp.into_body().collect().await {
                    Ok(b) => b.to_bytes(),
                    Err(e) => {
                        return self.fail(
                            &ids,
                            &format!("the answer from {} broke off: {e}", self.url),
                        );
                    }
                };
                self.deliver(&body, &mut owed, is_init(&line));
                self.fail_owed(ids, &owed, "answered without the response");
            }
            return;
        }
    }

    /// Reads an SSE body to its end, delivering each message; the id of
    /// the last event, if the server numbers them.
    async fn stream(
        &self,
        mut body: hyper::body::Incoming,
        owed: &mut HashSet<String>,
        init: bool,
    ) -> Option<String> {
        let mut sse = Sse::default();
        let mut last = None;
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else { break };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            for event in sse.feed(&data) {
                if event.id.is_some() {
                    last = event.id.clone();
                }
                if event.event.is_empty() || event.event == "message" {
                    self.deliver(&event.data, owed, init);
                }
            }
            if owed.is_empty() {
                // Everything owed has come; the server may keep the stream.
                break;
            }
        }
        last
    }

    /// Passes one message (or batch) on as a line, noting the answers.
    fn deliver(&self, body: &[u8], owed: &mut HashSet<String>, init: bool) {
        let body = body.trim_ascii();
        if body.is_empty() {
            return;
        }
        let mut answered = |env: &crate::envelope::Envelope<'_>| {
            if env.method.is_none()
                && let Some(id) = env.id.and_then(canonical)
            {
                owed.remove(&id);
            }
            if init
                && let Some(r) = env.result.clone()
                && let Ok(v) = pith::json::parse_bytes(&body[r])
                && let Some(version) = v.get("protocolVersion").and_then(pith::Value::as_str)
            {
                lock(&self.session).version = Some(version.to_owned());
            }
        };
        match scan(body) {
            Frame::Single(env) => answered(&env),
            Frame::Batch(envs) => envs.iter().for_each(answered),
            Frame::Opaque => {}
        }
        let mut line = body.to_vec();
        line.push(b'\n');
        let _ = self.out.send(line);
    }

    /// The GET stream of the server's own messages, kept open (and
    /// resumed) while the client is there; a server without one answers 405.
    async fn listen(self: Arc<Self>) {
        let mut last: Option<String> = None;
        let mut failures = 0;
        while !self.closing.load(std::sync::atomic::Ordering::SeqCst) && failures < 5 {
            if lock(&self.session).legacy.is_some() {
                return;
            }
            match self
                .request(Method::GET, &self.url, None, last.as_deref())
                .await
            {
                Ok(r) if r.status() == StatusCode::METHOD_NOT_ALLOWED => return,
                Ok(r) if r.status().is_success() && is_sse(&r) => {
                    failures = 0;
                    let mut none = HashSet::new();
                    last = self.stream(r.into_body(), &mut none, false).await.or(last);
                }
                _ => failures += 1,
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// Opens the session again with the client's `initialize` (its answer
    /// kept from the client, which has one already) and `initialized`.
    async fn reopen(&self, expired: Option<String>) -> Result<(), String> {
        let _one = self.reopen.lock().await;
        let (init, initialized) = {
            let mut s = lock(&self.session);
            if s.id != expired {
                // Another request has opened it again meanwhile.
                return Ok(());
            }
            s.id = None;
            (s.init.clone(), s.initialized.clone())
        };
        let Some(init) = init else {
            return Err(format!(
                "{} forgot the session, and there is no initialize to open it again",
                self.url
            ));
        };
        let resp = self
            .request(Method::POST, &self.url, Some(init), None)
            .await
            .map_err(|e| format!("cannot reach {}: {e}", self.url))?;
        if !resp.status().is_success() {
            return Err(format!(
                "{} refused to open the session again: HTTP {}",
                self.url,
                resp.status()
            ));
        }
        if let Some(id) = header(&resp, "mcp-session-id") {
            lock(&self.session).id = Some(id);
        }
        let _ = read_text(resp).await;
        if let Some(n) = initialized
            && let Ok(r) = self.request(Method::POST, &self.url, Some(n), None).await
        {
            let _ = read_text(r).await;
        }
        Ok(())
    }

    /// Switches to the HTTP+SSE transport if the server has it: a GET
    /// whose first event names where to POST. Whether it does.
    async fn open_legacy(self: Arc<Self>) -> bool {
        let Ok(resp) = self.request(Method::GET, &self.url, None, None).await else {
            return false;
        };
        if !resp.status().is_success() || !is_sse(&resp) {
            return false;
        }
        let mut body = resp.into_body();
        let mut sse = Sse::default();
        let mut pending = Vec::new();
        let endpoint = loop {
            let Some(Ok(frame)) = body.frame().await else {
                return false;
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            pending.extend(sse.feed(&data));
            if let Some(i) = pending.iter().position(|e| e.event == "endpoint") {
                let e = pending.remove(i);
                break String::from_utf8_lossy(&e.data).trim().to_owned();
            }
        };
        let Some(url) = resolve(&self.url, &endpoint) else {
            return false;
        };
        lock(&self.session).legacy = Some(url);
        let link = self.clone();
        let reader = tokio::spawn(async move {
            let mut none = HashSet::new();
            for e in pending {
                link.deliver(&e.data, &mut none, false);
            }
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                for e in sse.feed(&data) {
                    if e.event.is_empty() || e.event == "message" {
                        link.deliver(&e.data, &mut none, false);
                    }
                }
            }
        });
        *lock(&self.legacy_reader) = Some(reader);
        true
    }

    /// Ends the session with DELETE, if there is one.
    async fn end_session(&self) {
        if let Some(reader) = lock(&self.legacy_reader).take() {
            reader.abort();
        }
        let has = lock(&self.session).id.is_some();
        if has {
            let _ = tokio::time::timeout(
                Duration::from_secs(2),
                self.request(Method::DELETE, &self.url, None, None),
            )
            .await;
        }
    }

    /// Error answers for the requests among `ids` still `owed`.
    fn fail_owed(&self, ids: Vec<Vec<u8>>, owed: &HashSet<String>, what: &str) {
        if owed.is_empty() {
            return;
        }
        let left: Vec<Vec<u8>> = ids
            .into_iter()
            .filter(|i| canonical(i).is_some_and(|c| owed.contains(&c)))
            .collect();
        self.fail(&left, &format!("{} {what}", self.url));
    }

    /// Error answers for `ids`.
    fn fail(&self, ids: &[Vec<u8>], message: &str) {
        for id in ids {
            let _ = self.out.send(error_response(id, message));
        }
        if ids.is_empty() {
            eprintln!("pith: {message}");
        }
    }

    async fn request(
        &self,
        method: Method,
        url: &Uri,
        body: Option<Vec<u8>>,
        last_event: Option<&str>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, String> {
        let mut b = hyper::Request::builder()
            .method(method.clone())
            .uri(url.clone());
        let accept = if method == Method::GET {
            "text/event-stream"
        } else {
            "application/json, text/event-stream"
        };
        b = b.header("accept", accept);
        if body.is_some() {
            b = b.header("content-type", "application/json");
        }
        {
            let s = lock(&self.session);
            if let Some(id) = &s.id {
                b = b.header("mcp-session-id", id.as_str());
            }
            if let Some(v) = &s.version {
                b = b.header("mcp-protocol-version", v.as_str());
            }
        }
        if let Some(last) = last_event {
            b = b.header("last-event-id", last);
        }
        for (k, v) in &self.headers {
            b = b.header(k, v);
        }
        let req = b
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| e.to_string())?;
        self.http.request(req).await.map_err(|e| {
            let mut s = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(inner) = src {
                s.push_str(": ");
                s.push_str(&inner.to_string());
                src = inner.source();
            }
            s
        })
    }
}

fn is_init(line: &[u8]) -> bool {
    match scan(line) {
        Frame::Single(env) => env.method.and_then(string_value).as_deref() == Some("initialize"),
        _ => false,
    }
}

fn header(resp: &hyper::Response<hyper::body::Incoming>, name: &str) -> Option<String> {
    resp.headers().get(name)?.to_str().ok().map(str::to_owned)
}

fn is_sse(resp: &hyper::Response<hyper::body::Incoming>) -> bool {
    header(resp, "content-type").is_some_and(|c| c.starts_with("text/event-stream"))
}

async fn read_text(resp: hyper::Response<hyper::body::Incoming>) -> String {
    match resp.into_body().collect().await {
        Ok(b) => String::from_utf8_lossy(&b.to_bytes()).into_owned(),
        Err(_) => String::new(),
    }
}

fn snippet(body: &str) -> String {
    let t = body.trim();
    match t.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None if t.is_empty() => "(no body)".into(),
        None => t.to_owned(),
    }
}

/// The canonical text of a raw id (as the tracker keys it).
fn canonical(raw: &[u8]) -> Option<String> {
    pith::json::parse_bytes(raw)
        .ok()
        .map(|v| pith::json::stringify(&v))
}

/// `endpoint` (absolute, absolute path, or relative) against `base`.
fn resolve(base: &Uri, endpoint: &str) -> Option<Uri> {
    if endpoint.starts_with("http://") || endpoint.starts_with("https://") {
        return endpoint.parse().ok();
    }
    let scheme = base.scheme_str()?;
    let authority = base.authority()?.as_str();
    let path = if endpoint.starts_with('/') {
        endpoint.to_owned()
    } else {
        let dir = base.path().rsplit_once('/').map_or("", |(d, _)| d);
        format!("{dir}/{endpoint}")
    };
    format!("{scheme}://{authority}{path}").parse().ok()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Event {
    event: String,
    data: Vec<u8>,
    id: Option<String>,
}

/// An incremental reader of `text/event-stream`.
#[derive(Default)]
struct Sse {
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    event: String,
    id: Option<String>,
}

impl Sse {
    /// The events `chunk` completes.
    fn feed(&mut self, chunk: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        for &b in chunk {
            if b != b'\n' {
                self.line.push(b);
                continue;
            }
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.is_empty() {
                if self.has_data || self.id.is_some() {
                    out.push(Event {
                        event: std::mem::take(&mut self.event),
                        data: std::mem::take(&mut self.data),
                        id: self.id.take(),
                    });
                }
                self.has_data = false;
                continue;
            }
            let (field, value) = match line.iter().position(|&c| c == b':') {
                Some(0) => continue, // a comment
                Some(i) => {
                    let v = &line[i + 1..];
                    (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
                }
                None => (&line[..], &b""[..]),
            };
            match field {
                b"data" => {
                    if self.has_data {
                        self.data.push(b'\n');
                    }
                    self.data.extend_from_slice(value);
                    self.has_data = true;
                }
                b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
                b"id" => self.id = Some(String::from_utf8_lossy(value).into_owned()),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_split_anywhere() {
        let stream = b": hello\r\nevent: message\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: x\n\nevent: endpoint\ndata: /messages?s=1\n\n";
        for split in 0..stream.len() {
            let mut sse = Sse::default();
            let mut events = sse.feed(&stream[..split]);
            events.extend(sse.feed(&stream[split..]));
            assert_eq!(events.len(), 3, "split at {split}");
            assert_eq!(events[0].data, b"{\"a\":\n1}");
            assert_eq!(events[0].id.as_deref(), Some("7"));
            assert_eq!(events[0].event, "message");
            assert_eq!(events[1].data, b"x");
            assert_eq!(events[2].event, "endpoint");
        }
    }

    #[test]
    fn headers_read_the_environment() {
        // SAFETY-free: a variable only this test uses.
        let var = format!("PITH_TEST_TOKEN_{}", std::process::id());
        assert!(expand(&format!("Bearer ${{{var}}}"), "Authorization").is_err());
        let set = std::env::var("PATH").unwrap();
        assert_eq!(expand("a ${PATH} b", "X").unwrap(), format!("a {set} b"));
        assert!(expand("${PATH", "X").is_err());
        let r = Remote::new("https://example.com/mcp", &["X-Key: plain".into()]).unwrap();
        assert_eq!(r.headers, [("X-Key".to_owned(), "plain".to_owned())]);
        assert!(Remote::new("ftp://example.com", &[]).is_err());
        assert!(Remote::new("https://example.com", &["no colon".into()]).is_err());
    }

    #[test]
    fn endpoints_resolve_against_the_url() {
        let base: Uri = "http://127.0.0.1:9/mcp/sse".parse().unwrap();
        assert_eq!(
            resolve(&base, "/messages?s=1").unwrap().to_string(),
            "http://127.0.0.1:9/messages?s=1"
        );
        assert_eq!(
            resolve(&base, "messages").unwrap().to_string(),
            "http://127.0.0.1:9/mcp/messages"
        );
        assert_eq!(
            resolve(&base, "https://x.org/m").unwrap().to_string(),
            "https://x.org/m"
        );
    }
}
