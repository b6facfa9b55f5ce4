//! One object of a store, read by byte ranges: its URL, length and version as they were when it
//! was listed, and the fetch of several ranges at once (coalesced, several requests in flight,
//! each response's version checked, the bounded cache asked first).

use crate::load::error::LoadReason;
use crate::load::remote::cache::DiskCache;
use bytes::Bytes;
use futures_util::StreamExt;
use object_store::path::Path as StorePath;
use object_store::{GetOptions, GetRange, ObjectMeta, ObjectStore};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What the reads of one opening of a store have cost: requests sent (retries not counted),
/// bytes received, and ranges served from the local cache instead.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub requests: AtomicU64,
    pub bytes: AtomicU64,
    pub cache_hits: AtomicU64,
    pub cache_bytes: AtomicU64,
}

/// An object of a store, as listed: reads of it check that it is still this version.
#[derive(Debug)]
pub(crate) struct RemoteObject {
    pub url: String,
    pub store: Arc<dyn ObjectStore>,
    pub path: StorePath,
    pub size: u64,
    // The ETag when the store gives one, else the modification time: the version every
    // response must carry.
    pub version: Version,
    pub cache: Option<Arc<DiskCache>>,
    pub counters: Arc<Counters>,
    pub in_flight: usize,
    // Ranges closer than this are fetched by one request.
    pub coalesce: u64,
}

/// The version of an object a read expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Version {
    ETag(String),
    Modified(String),
}

impl Version {
    pub fn of(meta: &ObjectMeta) -> Self {
        match &meta.e_tag {
            Some(tag) => Version::ETag(tag.clone()),
            None => Version::Modified(meta.last_modified.to_rfc3339()),
        }
    }

    fn words(&self) -> String {
        match self {
            Version::ETag(tag) => format!("ETag {tag}"),
            Version::Modified(at) => format!("modified {at}"),
        }
    }

    /// The part of a cache key that names this version.
    pub fn key(&self) -> &str {
        match self {
            Version::ETag(tag) | Version::Modified(tag) => tag,
        }
    }
}

/// The runtime the library's requests run on: two threads of its own, so that a read works from
/// any thread, inside another runtime too (the caller's thread waits on a channel, it does not
/// enter this runtime).
fn runtime() -> Result<&'static tokio::runtime::Runtime, LoadReason> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("batchspec-remote")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|message| LoadReason::Remote {
            range: None,
            message: format!("cannot start the runtime of remote reads: {message}"),
        })
}

/// Runs `work` on the library's runtime and waits for it on this thread.
pub(crate) fn run<T: Send + 'static>(
    work: impl Future<Output = Result<T, LoadReason>> + Send + 'static,
) -> Result<T, LoadReason> {
    run_until(work, None)
}

/// A way for another thread to stop a read: [`Stop::stop`] drops the read's requests (their
/// connections closed, nothing more received), and the read returns at once with an error
/// saying it was stopped. For reads nobody will wait for, as a stream's read ahead when the
/// stream is dropped.
#[derive(Debug, Default)]
pub(crate) struct Stop(Mutex<(bool, Option<tokio::task::AbortHandle>)>);

impl Stop {
    /// Stops the read running with this, if any, and every later one.
    pub(crate) fn stop(&self) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        state.0 = true;
        if let Some(task) = state.1.take() {
            task.abort();
        }
    }

    fn stopped(&self) -> bool {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).0
    }

    /// `task` is the read to stop from now on (stopped at once if [`stop`](Self::stop) came
    /// first).
    fn watch(&self, task: tokio::task::AbortHandle) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if state.0 {
            task.abort();
        } else {
            state.1 = Some(task);
        }
    }
}

/// [`run`], stopped by `stop` if it is stopped first.
fn run_until<T: Send + 'static>(
    work: impl Future<Output = Result<T, LoadReason>> + Send + 'static,
    stop: Option<&Stop>,
) -> Result<T, LoadReason> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let task = runtime()?.spawn(async move {
        // The receiver waits for this send; it is gone only if the caller's thread is.
        let _ = tx.send(work.await);
    });
    if let Some(stop) = stop {
        stop.watch(task.abort_handle());
    }
    // A stopped task is dropped with its sender: the receive ends at once.
    rx.recv().map_err(|_| LoadReason::Remote {
        range: None,
        message: if stop.is_some_and(Stop::stopped) {
            "the read was stopped before it ended (its stream was dropped or started again)".into()
        } else {
            "the runtime of remote reads stopped before answering".into()
        },
    })?
}

/// An error of the store, for the byte range `range` (`None`: the whole object or a listing).
pub(crate) fn store_error(range: Option<Range<u64>>, e: &object_store::Error) -> LoadReason {
    // The store's message, then its causes (the client's "error sending request" says why only
    // in them: a refused connection, a certificate, a timeout), each once.
    let mut message = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let text = c.to_string();
        if !message.contains(&text) {
            message = format!("{message}: {text}");
        }
        cause = c.source();
    }
    LoadReason::Remote { range, message }
}

impl RemoteObject {
    /// The bytes of each of `ranges` (in that order), from the cache where it holds them, the
    /// rest fetched with up to `in_flight` requests at a time, ranges less than 1 MiB apart by
    /// one request. Every response must be of the version listed: a changed object is an error
    /// ([`LoadReason::Changed`]), never a mix of two versions.
    pub fn fetch(self: &Arc<Self>, ranges: &[Range<u64>]) -> Result<Vec<Bytes>, LoadReason> {
        self.fetch_until(ranges, None)
    }

    /// [`fetch`](Self::fetch), stopped by `stop` if it is stopped first.
    fn fetch_until(
        self: &Arc<Self>,
        ranges: &[Range<u64>],
        stop: Option<&Stop>,
    ) -> Result<Vec<Bytes>, LoadReason> {
        let mut out: Vec<Option<Bytes>> = vec![None; ranges.len()];
        for (i, range) in ranges.iter().enumerate() {
            if range.end > self.size || range.start > range.end {
                return Err(LoadReason::Remote {
                    range: Some(range.clone()),
                    message: format!("the range is not inside the object's {} bytes", self.size),
                });
            }
            if let Some(cache) = &self.cache
                && let Some(bytes) = cache.get(&self.key(range), range.end - range.start)
            {
                self.counters.cache_hits.fetch_add(1, Ordering::Relaxed);
                self.counters
                    .cache_bytes
                    .fetch_add(bytes.len() as u64, Ordering::Relaxed);
                out[i] = Some(bytes);
            }
        }
        // An empty range needs no request (a store refuses one).
        for (i, range) in ranges.iter().enumerate() {
            if range.start == range.end {
                out[i] = Some(Bytes::new());
            }
        }
        let missing: Vec<usize> = (0..ranges.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let wanted: Vec<Range<u64>> = missing.iter().map(|&i| ranges[i].clone()).collect();
            let fetched = self.fetch_uncached(&wanted, stop)?;
            for (&i, bytes) in missing.iter().zip(fetched) {
                if let Some(cache) = &self.cache {
                    cache.put(&self.key(&ranges[i]), &bytes);
                }
                out[i] = Some(bytes);
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// The bytes of `range`, as [`fetch`](Self::fetch) gets them.
    pub fn fetch_one(self: &Arc<Self>, range: Range<u64>) -> Result<Bytes, LoadReason> {
        self.fetch_one_until(range, None)
    }

    /// [`fetch_one`](Self::fetch_one), stopped by `stop` if it is stopped first.
    pub fn fetch_one_until(
        self: &Arc<Self>,
        range: Range<u64>,
        stop: Option<&Stop>,
    ) -> Result<Bytes, LoadReason> {
        let mut got = self.fetch_until(std::slice::from_ref(&range), stop)?;
        Ok(got.pop().unwrap_or_default())
    }

    fn key(&self, range: &Range<u64>) -> String {
        format!(
            "{} {} {}..{}",
            self.url,
            self.version.key(),
            range.start,
            range.end
        )
    }

    /// The ranges fetched from the store: coalesced, in flight `in_flight` at a time, each
    /// response's version checked.
    fn fetch_uncached(
        self: &Arc<Self>,
        ranges: &[Range<u64>],
        stop: Option<&Stop>,
    ) -> Result<Vec<Bytes>, LoadReason> {
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&i| (ranges[i].start, ranges[i].end));
        // Requests: each a range covering one or more of the wanted ones.
        let mut requests: Vec<Range<u64>> = Vec::new();
        for &i in &order {
            let r = &ranges[i];
            match requests.last_mut() {
                Some(last) if r.start <= last.end.saturating_add(self.coalesce) => {
                    last.end = last.end.max(r.end);
                }
                _ => requests.push(r.clone()),
            }
        }
        let object = Arc::clone(self);
        let in_flight = self.in_flight.max(1);
        let answers: Vec<(Range<u64>, Bytes)> = run_until(
            async move {
                futures_util::stream::iter(requests)
                    .map(|range| {
                        let object = Arc::clone(&object);
                        async move {
                            let bytes = object.get(range.clone()).await?;
                            Ok::<_, LoadReason>((range, bytes))
                        }
                    })
                    .buffered(in_flight)
                    .collect::<Vec<_>>()
                    .await
                    .into_iter()
                    .collect()
            },
            stop,
        )?;
        let mut out = vec![Bytes::new(); ranges.len()];
        for (i, r) in ranges.iter().enumerate() {
            // Every wanted range lies inside one request, by construction: the last to start at
            // or before it (the requests are in order and do not overlap).
            let k = answers.partition_point(|(got, _)| got.start <= r.start);
            if let Some((got, bytes)) = k.checked_sub(1).map(|k| &answers[k])
                && r.end <= got.end
            {
                let from = (r.start - got.start) as usize;
                let to = (r.end - got.start) as usize;
                out[i] = bytes.slice(from..to);
            }
        }
        Ok(out)
    }

    /// One ranged GET, with the store's retries and timeouts, checked to be of the version
    /// listed and to hold every byte asked for.
    async fn get(&self, range: Range<u64>) -> Result<Bytes, LoadReason> {
        let options = GetOptions {
            range: Some(GetRange::Bounded(range.clone())),
            if_match: match &self.version {
                Version::ETag(tag) => Some(tag.clone()),
                Version::Modified(_) => None,
            },
            ..Default::default()
        };
        self.counters.requests.fetch_add(1, Ordering::Relaxed);
        let answer = self
            .store
            .get_opts(&self.path, options)
            .await
            .map_err(|e| match e {
                object_store::Error::Precondition { .. } => LoadReason::Changed {
                    listed: self.version.words(),
                    found: "another version (the store refused the read of the listed one)".into(),
                },
                e => store_error(Some(range.clone()), &e),
            })?;
        let found = Version::of(&answer.meta);
        if found != self.version {
            return Err(LoadReason::Changed {
                listed: self.version.words(),
                found: found.words(),
            });
        }
        let bytes = answer
            .bytes()
            .await
            .map_err(|e| store_error(Some(range.clone()), &e))?;
        if bytes.len() as u64 != range.end - range.start {
            return Err(LoadReason::Remote {
                range: Some(range.clone()),
                message: format!(
                    "the store answered {} bytes for a range of {}",
                    bytes.len(),
                    range.end - range.start
                ),
            });
        }
        self.counters
            .bytes
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;
    use object_store::{ObjectStoreExt, PutPayload};

    /// `bytes` as an object of an in-memory store, read with `coalesce`.
    fn object(bytes: &'static [u8], coalesce: u64) -> Arc<RemoteObject> {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = StorePath::from("x.parquet");
        let (s, p) = (Arc::clone(&store), path.clone());
        let meta = run(async move {
            s.put(&p, PutPayload::from_static(bytes))
                .await
                .map_err(|e| store_error(None, &e))?;
            s.head(&p).await.map_err(|e| store_error(None, &e))
        })
        .unwrap();
        Arc::new(RemoteObject {
            url: "memory:///x.parquet".into(),
            store,
            path,
            size: meta.size,
            version: Version::of(&meta),
            cache: None,
            counters: Arc::default(),
            in_flight: 2,
            coalesce,
        })
    }

    #[test]
    fn ranges_come_back_in_order_coalesced_and_an_empty_one_needs_no_request() {
        let o = object(b"0123456789abcdef", 4);
        let got = o.fetch(&[10..12, 0..0, 2..5, 4..6]).unwrap();
        let want: Vec<&[u8]> = vec![b"ab", b"", b"234", b"45"];
        assert_eq!(got.iter().map(|b| &b[..]).collect::<Vec<_>>(), want);
        // 2..5 and 4..6 overlap, 10..12 starts 4 bytes after 6: one request for 2..12.
        assert_eq!(o.counters.requests.load(Ordering::Relaxed), 1);
        assert_eq!(o.counters.bytes.load(Ordering::Relaxed), 10);
        // Without coalescing, the gap is not fetched: two requests.
        let o = object(b"0123456789abcdef", 0);
        o.fetch(&[10..12, 2..5, 4..6]).unwrap();
        assert_eq!(o.counters.requests.load(Ordering::Relaxed), 2);
        assert_eq!(o.counters.bytes.load(Ordering::Relaxed), 6);
        // Past the end: an error naming the range, no request.
        let err = o.fetch_one(15..17).unwrap_err();
        assert!(matches!(err, LoadReason::Remote { range: Some(r), .. } if r == (15..17)));
    }
}
