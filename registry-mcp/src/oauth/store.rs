//! The file that keeps OAuth tokens: one JSON object of stored credentials by server URL,
//! readable and writable by its owner alone.

use std::collections::BTreeMap;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

/// A file of OAuth tokens, by server URL. It is created with mode `0600` (its folder, when
/// missing, `0700`) and replaced whole at each change, so a reader never sees half of it; a
/// file that others can read is refused, not used. Processes that share the file do not
/// coordinate: the last to save a server's tokens wins, and a refresh token another process
/// has rotated fails as a refused refresh would.
#[derive(Debug, Clone)]
pub struct CredentialFile {
    path: PathBuf,
}

#[derive(Default, Serialize, Deserialize)]
struct Contents {
    servers: BTreeMap<String, StoredCredentials>,
}

impl CredentialFile {
    /// The file at `path` (it need not exist yet).
    pub fn new(path: impl Into<PathBuf>) -> CredentialFile {
        CredentialFile { path: path.into() }
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The URLs of the servers it holds tokens for.
    ///
    /// # Errors
    /// The file cannot be read, is not a credentials file, or others can read it.
    pub fn servers(&self) -> io::Result<Vec<String>> {
        Ok(self.read()?.servers.into_keys().collect())
    }

    /// Forgets the tokens of the server at `url`; whether there were any.
    ///
    /// # Errors
    /// The file cannot be read or written.
    pub fn remove(&self, url: &str) -> io::Result<bool> {
        let mut contents = self.read()?;
        let removed = contents.servers.remove(url).is_some();
        if removed {
            self.write(&contents)?;
        }
        Ok(removed)
    }

    /// The store of one server's tokens, read now and kept in memory; saves go to the file.
    pub(crate) fn for_server(&self, url: &str) -> io::Result<ServerCredentials> {
        let stored = self.read()?.servers.remove(url);
        Ok(ServerCredentials {
            file: self.clone(),
            url: url.to_owned(),
            cached: Arc::new(Mutex::new(stored)),
        })
    }

    fn read(&self) -> io::Result<Contents> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Contents::default()),
            Err(error) => return Err(self.error(error)),
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&self.path)
                .map_err(|error| self.error(error))?
                .permissions()
                .mode();
            if mode & 0o077 != 0 {
                return Err(self.error(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!(
                        "others can read it (mode {:o}); `chmod 600` it",
                        mode & 0o777
                    ),
                )));
            }
        }
        serde_json::from_str(&text).map_err(|error| {
            self.error(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not a credentials file: {error}"),
            ))
        })
    }

    fn write(&self, contents: &Contents) -> io::Result<()> {
        let text = serde_json::to_vec_pretty(contents).map_err(io::Error::other)?;
        let folder = match self.path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(folder).map_err(|error| self.error(error))?;
        let (temporary, mut file) = self.new_temporary(folder)?;
        let written = file.write_all(&text).and_then(|()| file.sync_all());
        let renamed = written.and_then(|()| std::fs::rename(&temporary, &self.path));
        if renamed.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        renamed.map_err(|error| self.error(error))
    }

    /// A new file beside the credentials, for the next contents, at `.NAME.PID.tmp` (a name a
    /// program embedding this can keep its tools away from): made only where nothing is
    /// (`create_new`, which also refuses a link), after unlinking whatever was planted or left
    /// there, so the tokens go into a file of this process's own and nowhere else.
    fn new_temporary(&self, folder: &Path) -> io::Result<(PathBuf, std::fs::File)> {
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let temporary = folder.join(format!(".{name}.{}.tmp", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut attempts = 0;
        loop {
            match options.open(&temporary) {
                Ok(file) => return Ok((temporary, file)),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempts < 8 => {
                    attempts += 1;
                    // Unlinking a link removes the link, not what it names.
                    match std::fs::remove_file(&temporary) {
                        Err(error) if error.kind() != io::ErrorKind::NotFound => {
                            return Err(self.error(error));
                        }
                        _ => {}
                    }
                }
                Err(error) => return Err(self.error(error)),
            }
        }
    }

    fn error(&self, error: io::Error) -> io::Error {
        io::Error::new(error.kind(), format!("{}: {error}", self.path.display()))
    }
}

/// One server's tokens in a [`CredentialFile`]: rmcp's store for its authorization manager.
/// Clones share the tokens kept in memory.
#[derive(Clone)]
pub(crate) struct ServerCredentials {
    file: CredentialFile,
    url: String,
    cached: Arc<Mutex<Option<StoredCredentials>>>,
}

impl ServerCredentials {
    /// Whether it holds an access token (a refresh may still be needed).
    pub(crate) async fn has_tokens(&self) -> bool {
        self.cached
            .lock()
            .await
            .as_ref()
            .is_some_and(|stored| stored.token_response.is_some())
    }

    /// The issuer its tokens are bound to.
    pub(crate) async fn issuer(&self) -> Option<String> {
        self.cached.lock().await.as_ref()?.issuer.clone()
    }

    fn store(&self, stored: Option<StoredCredentials>) -> Result<(), AuthError> {
        let failed = |error: io::Error| AuthError::CredentialStoreError(error.to_string());
        let mut contents = self.file.read().map_err(failed)?;
        match stored {
            Some(stored) => contents.servers.insert(self.url.clone(), stored),
            None => contents.servers.remove(&self.url),
        };
        self.file.write(&contents).map_err(failed)
    }
}

#[async_trait::async_trait]
impl CredentialStore for ServerCredentials {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        Ok(self.cached.lock().await.clone())
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let mut cached = self.cached.lock().await;
        self.store(Some(credentials.clone()))?;
        *cached = Some(credentials);
        Ok(())
    }

    async fn clear(&self) -> Result<(), AuthError> {
        let mut cached = self.cached.lock().await;
        self.store(None)?;
        *cached = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credentials(client: &str) -> StoredCredentials {
        StoredCredentials::new(client.into(), None, vec!["mcp".into()], Some(1))
    }

    #[tokio::test]
    async fn tokens_are_kept_by_server_in_a_file_only_its_owner_reads() {
        let dir = tempfile::tempdir().unwrap();
        let file = CredentialFile::new(dir.path().join("nested/credentials.json"));
        let a = file.for_server("https://a.example/mcp").unwrap();
        a.save(credentials("client-a")).await.unwrap();
        let b = file.for_server("https://b.example/mcp").unwrap();
        b.save(credentials("client-b")).await.unwrap();
        assert_eq!(
            file.servers().unwrap(),
            ["https://a.example/mcp", "https://b.example/mcp"]
        );
        let again = file.for_server("https://a.example/mcp").unwrap();
        assert_eq!(again.load().await.unwrap().unwrap().client_id, "client-a");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(file.path()), 0o600);
            assert_eq!(mode(&dir.path().join("nested")), 0o700);
        }
        assert!(file.remove("https://a.example/mcp").unwrap());
        assert!(!file.remove("https://a.example/mcp").unwrap());
        assert_eq!(file.servers().unwrap(), ["https://b.example/mcp"]);
        b.clear().await.unwrap();
        assert!(file.servers().unwrap().is_empty());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn saving_never_writes_through_a_link_planted_beside_the_file() {
        // A link at the name a save writes to first, to a file another user could read, and
        // one beside it: the tokens must reach the credentials file and nothing else.
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "untouched").unwrap();
        let path = dir.path().join("credentials.json");
        let pid = std::process::id();
        for planted in [
            format!(".credentials.json.{pid}.tmp"),
            "credentials.json.tmp".into(),
        ] {
            std::os::unix::fs::symlink(&victim, dir.path().join(planted)).unwrap();
        }
        let file = CredentialFile::new(&path);
        let server = file.for_server("https://a.example/mcp").unwrap();
        server.save(credentials("client-a")).await.unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
        assert_eq!(file.servers().unwrap(), ["https://a.example/mcp"]);
        assert!(
            !std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_read_is_refused_naming_it() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("credentials.json");
        std::fs::write(&path, r#"{"servers": {}}"#).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let error = CredentialFile::new(&path)
            .servers()
            .unwrap_err()
            .to_string();
        assert!(error.starts_with(&path.display().to_string()), "{error}");
        assert!(error.contains("others can read it (mode 644)"), "{error}");
    }
}
