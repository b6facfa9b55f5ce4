//! Data in object storage (feature `remote`, with a feature per store: `s3`, `gcs`, `azure`,
//! `http`), through the Apache `object_store` crate: a URL opened into its store, a prefix
//! listed, objects read by byte ranges with retries, timeouts and version checks
//! (`object.rs`), and the bounded cache on local disk (`cache.rs`).

mod cache;
pub(crate) mod object;

use crate::load::error::LoadReason;
use cache::DiskCache;
use object::{Counters, RemoteObject, Version, run, store_error};
use object_store::ObjectStore;
use object_store::path::Path as StorePath;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How remote data is read: timeouts, retries, requests in flight, and the optional cache on
/// local disk. [`RemoteOptions::open`] opens a URL with them; `ParquetFiles::open` with a URL
/// uses the defaults.
///
/// Credentials and endpoints come from each store's standard environment (`AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`, `AWS_ENDPOINT_URL`,
/// `AWS_ALLOW_HTTP` for S3; `GOOGLE_SERVICE_ACCOUNT` and the like for GCS; `AZURE_STORAGE_*`
/// for Azure), read by the `object_store` crate; the library never logs them, and its errors
/// name URLs and byte ranges, not credentials.
///
/// ```no_run
/// use batchspec::load::RemoteOptions;
/// use std::time::Duration;
///
/// let files = RemoteOptions::new()
///     .timeout(Duration::from_secs(10))
///     .retries(3)
///     .cache("/tmp/batchspec-cache", 2 << 30)
///     .open("s3://datasets/train/")?;
/// # Ok::<(), batchspec::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct RemoteOptions {
    pub(crate) timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) retries: usize,
    pub(crate) retry_timeout: Duration,
    pub(crate) backoff: Duration,
    pub(crate) in_flight: usize,
    pub(crate) coalesce: u64,
    pub(crate) cache: Option<(PathBuf, u64)>,
    pub(crate) settings: Vec<(String, String)>,
}

/// The settings' names only: their values may be credentials.
impl std::fmt::Debug for RemoteOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.settings.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("RemoteOptions")
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("retries", &self.retries)
            .field("retry_timeout", &self.retry_timeout)
            .field("backoff", &self.backoff)
            .field("in_flight", &self.in_flight)
            .field("coalesce", &self.coalesce)
            .field("cache", &self.cache)
            .field("settings (values not shown)", &names)
            .finish()
    }
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            retries: 5,
            retry_timeout: Duration::from_secs(120),
            backoff: Duration::from_millis(100),
            in_flight: 8,
            coalesce: 1 << 20,
            cache: None,
            settings: Vec::new(),
        }
    }
}

impl RemoteOptions {
    /// The defaults: every request times out after 30 s (5 s to connect), a transient failure
    /// (a 5xx answer, a timeout, a reset connection) is retried up to 5 times within 120 s with
    /// exponential backoff from 100 ms, 8 requests in flight, no cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The most a request may take, from sending it to the last byte of its answer: a server
    /// that stops answering is an error after this (and the retries), never a hang.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The most connecting may take.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How many times a transient failure is retried before the read fails with an error naming
    /// the URL, the byte range and the attempts (`0`: never retried). Missing objects and
    /// refused requests (4xx) are not retried.
    pub fn retries(mut self, retries: usize) -> Self {
        self.retries = retries;
        self
    }

    /// The first wait before a retry (doubled, with jitter, up to 15 s), and the most time all
    /// the retries of one request may take.
    pub fn backoff(mut self, first: Duration, total: Duration) -> Self {
        self.backoff = first;
        self.retry_timeout = total;
        self
    }

    /// How many requests of one read may be in flight at once (at least 1; default 8).
    pub fn in_flight(mut self, requests: usize) -> Self {
        self.in_flight = requests.max(1);
        self
    }

    /// Sets one of the store's settings by its `object_store` name, over the environment's
    /// (`aws_endpoint`, `aws_region`, `aws_access_key_id`, `aws_allow_http`,
    /// `google_service_account`, `azure_storage_account_name`, ...: each store's `ConfigKey`
    /// names), as `storage_options` do in fsspec and Hugging Face `datasets`. An unknown name is
    /// an error when the URL is opened.
    pub fn setting(mut self, name: &str, value: &str) -> Self {
        self.settings.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Ranges of one read closer than `bytes` are fetched by one request, the bytes between them
    /// too (default 1 MiB, the `object_store` crate's own: on a store a request costs more than
    /// a megabyte). `0` fetches exactly the column chunks a read needs, nothing between them:
    /// the least bytes, more requests.
    pub fn coalesce(mut self, bytes: u64) -> Self {
        self.coalesce = bytes;
        self
    }

    /// Keeps the byte ranges read (column chunks and footers) in the directory `dir`, at most
    /// `max_bytes` of them: a later read of the same range of the same version of an object is
    /// served from local disk. Several processes may share the directory (a node's ranks): each
    /// range is written once, atomically, under the directory's lock, and the limit holds for
    /// them all together; the least recently read ranges are evicted first. A range larger than
    /// the whole cache is read but not kept.
    pub fn cache(mut self, dir: impl Into<PathBuf>, max_bytes: u64) -> Self {
        self.cache = Some((dir.into(), max_bytes));
        self
    }
}

/// What the reads of one opening have cost ([`ParquetFiles::remote_stats`](crate::load::ParquetFiles::remote_stats)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RemoteStats {
    /// Requests sent to the store for data (HEAD and LIST requests of the opening, and
    /// retries, not counted).
    pub requests: u64,
    /// Bytes received from the store.
    pub bytes: u64,
    /// Ranges served from the local cache.
    pub cache_hits: u64,
    /// Bytes served from the local cache.
    pub cache_bytes: u64,
}

/// An opened store: the objects listed share its client, counters and cache.
#[derive(Debug)]
pub(crate) struct Opened {
    store: Arc<dyn ObjectStore>,
    base: url::Url,
    counters: Arc<Counters>,
    cache: Option<Arc<DiskCache>>,
    in_flight: usize,
    coalesce: u64,
}

/// What a URL names: one object, or the objects and folders directly under a prefix.
pub(crate) enum Listing {
    Object(Arc<RemoteObject>),
    Prefix {
        objects: Vec<Arc<RemoteObject>>,
        // The folders' URLs, each ending in `/`.
        folders: Vec<String>,
    },
}

/// The URL of a location of the store.
fn url_of(base: &url::Url, location: &str) -> String {
    let mut url = base.clone();
    url.set_path(location);
    url.to_string()
}

fn ms(d: Duration) -> String {
    format!("{}ms", d.as_millis().max(1))
}

/// The error for a scheme whose store's feature is off, or that no store reads, in words.
fn scheme_off(scheme: &str) -> LoadReason {
    let feature = match scheme {
        "s3" | "s3a" => Some("s3"),
        "gs" => Some("gcs"),
        "az" | "abfs" | "abfss" | "azure" => Some("azure"),
        "http" | "https" => Some("http"),
        _ => None,
    };
    LoadReason::Remote {
        range: None,
        message: match feature {
            Some(feature) => format!(
                "reading `{scheme}://` URLs needs batchspec's cargo feature `{feature}`, which is off"
            ),
            None => format!(
                "`{scheme}://` is not a scheme batchspec reads (it reads `s3://`, `gs://`, `az://`, `abfs://`, `http://` and `https://`, each with its store's feature)"
            ),
        },
    }
}

/// `builder` with the settings of `options` applied by `set`, each name parsed as the store's
/// key.
#[allow(dead_code)]
fn settings<B, K: std::str::FromStr>(
    mut builder: B,
    options: &RemoteOptions,
    set: impl Fn(B, K, &str) -> B,
) -> Result<B, LoadReason>
where
    K::Err: std::fmt::Display,
{
    for (name, value) in &options.settings {
        let key = name.parse::<K>().map_err(|e| LoadReason::Remote {
            range: None,
            message: format!("`{name}` is not a setting of this store: {e}"),
        })?;
        builder = set(builder, key, value);
    }
    Ok(builder)
}

impl Opened {
    /// The store of `url` with `options`; the URL's path is the location in it.
    pub fn new(url: &str, options: &RemoteOptions) -> Result<(Self, StorePath), LoadReason> {
        let bad = |message: String| LoadReason::Remote {
            range: None,
            message,
        };
        let parsed = url::Url::parse(url).map_err(|e| bad(format!("not a URL: {e}")))?;
        // rustls needs a process-wide crypto provider for `https://`; `ring` is the one built in
        // (an error means one is installed already, which serves as well).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let retry = object_store::RetryConfig {
            backoff: object_store::BackoffConfig {
                init_backoff: options.backoff,
                max_backoff: Duration::from_secs(15),
                base: 2.0,
            },
            max_retries: options.retries,
            retry_timeout: options.retry_timeout,
        };
        #[allow(unused_imports)]
        use object_store::ClientConfigKey as Client;
        let (timeout, connect) = (ms(options.timeout), ms(options.connect_timeout));
        // A cloud store's builder from its environment, with the options' settings, timeouts
        // and retries.
        #[allow(unused_macros)]
        macro_rules! cloud {
            ($builder:ty, $key:ty) => {
                Arc::new(
                    settings(
                        <$builder>::from_env().with_url(url),
                        options,
                        |b, k: $key, v| b.with_config(k, v),
                    )?
                    .with_config(<$key>::Client(Client::Timeout), timeout)
                    .with_config(<$key>::Client(Client::ConnectTimeout), connect)
                    .with_retry(retry)
                    .build()
                    .map_err(|e| store_error(None, &e))?,
                )
            };
        }
        let store: Arc<dyn ObjectStore> = match parsed.scheme() {
            #[cfg(feature = "s3")]
            "s3" | "s3a" => cloud!(
                object_store::aws::AmazonS3Builder,
                object_store::aws::AmazonS3ConfigKey
            ),
            #[cfg(feature = "gcs")]
            "gs" => cloud!(
                object_store::gcp::GoogleCloudStorageBuilder,
                object_store::gcp::GoogleConfigKey
            ),
            #[cfg(feature = "azure")]
            "az" | "abfs" | "abfss" | "azure" => cloud!(
                object_store::azure::MicrosoftAzureBuilder,
                object_store::azure::AzureConfigKey
            ),
            #[cfg(feature = "http")]
            "http" | "https" => {
                use object_store::http::HttpBuilder;
                Arc::new(
                    settings(
                        HttpBuilder::new().with_url(parsed.origin().ascii_serialization()),
                        options,
                        |b, k: Client, v| b.with_config(k, v),
                    )?
                    .with_config(Client::Timeout, timeout)
                    .with_config(Client::ConnectTimeout, connect)
                    .with_config(Client::AllowHttp, "true")
                    .with_retry(retry)
                    .build()
                    .map_err(|e| store_error(None, &e))?,
                )
            }
            scheme => {
                let _ = (retry, timeout, connect);
                return Err(scheme_off(scheme));
            }
        };
        let cache = match &options.cache {
            Some((dir, limit)) => Some(Arc::new(DiskCache::new(dir.clone(), *limit).map_err(
                |e| {
                    bad(format!(
                        "cannot make the cache directory {}: {e}",
                        dir.display()
                    ))
                },
            )?)),
            None => None,
        };
        let path = StorePath::from_url_path(parsed.path())
            .map_err(|e| bad(format!("not a path of the store: {e}")))?;
        let opened = Opened {
            store,
            base: parsed,
            counters: Arc::default(),
            cache,
            in_flight: options.in_flight,
            coalesce: options.coalesce,
        };
        Ok((opened, path))
    }

    fn object(&self, meta: &object_store::ObjectMeta) -> Arc<RemoteObject> {
        Arc::new(RemoteObject {
            url: url_of(&self.base, meta.location.as_ref()),
            store: Arc::clone(&self.store),
            path: meta.location.clone(),
            size: meta.size,
            version: Version::of(meta),
            cache: self.cache.clone(),
            counters: Arc::clone(&self.counters),
            in_flight: self.in_flight,
            coalesce: self.coalesce,
        })
    }

    /// The object at `path`, or, when there is none (or the URL ends in `/`), what is directly
    /// under the prefix `path/`.
    pub fn list(&self, path: StorePath, folder: bool) -> Result<Listing, LoadReason> {
        let store = Arc::clone(&self.store);
        if !folder {
            let at = path.clone();
            let head = run(async move {
                use object_store::ObjectStoreExt;
                match store.head(&at).await {
                    Ok(meta) => Ok(Some(meta)),
                    Err(object_store::Error::NotFound { .. }) => Ok(None),
                    Err(e) => Err(store_error(None, &e)),
                }
            })?;
            if let Some(meta) = head {
                return Ok(Listing::Object(self.object(&meta)));
            }
        }
        let store = Arc::clone(&self.store);
        let prefix = path.clone();
        let listed = run(async move {
            store
                .list_with_delimiter(Some(&prefix))
                .await
                .map_err(|e| store_error(None, &e))
        })?;
        let mut objects: Vec<_> = listed.objects.iter().map(|m| self.object(m)).collect();
        // S3 lists in name order, other stores need not: the order of the part files is theirs.
        objects.sort_by(|a, b| a.url.cmp(&b.url));
        let mut folders: Vec<String> = listed
            .common_prefixes
            .iter()
            .map(|p| url_of(&self.base, &format!("{p}/")))
            .collect();
        folders.sort();
        if objects.is_empty() && folders.is_empty() {
            return Err(LoadReason::Remote {
                range: None,
                message: "no object at this URL, and none under it".into(),
            });
        }
        Ok(Listing::Prefix { objects, folders })
    }
}

/// What the counters of an opening's reads say so far.
impl From<&Counters> for RemoteStats {
    fn from(counters: &Counters) -> Self {
        RemoteStats {
            requests: counters.requests.load(Ordering::Relaxed),
            bytes: counters.bytes.load(Ordering::Relaxed),
            cache_hits: counters.cache_hits.load(Ordering::Relaxed),
            cache_bytes: counters.cache_bytes.load(Ordering::Relaxed),
        }
    }
}
