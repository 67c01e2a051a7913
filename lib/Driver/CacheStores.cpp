//===--- CacheStores.cpp - Where result cache entries are kept ------------===//

#include "Driver/CacheStores.h"
#include "Support/AtomicFile.h"
#include "Support/CacheEviction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <curl/curl.h>
#include <hiredis/hiredis.h>
#include <mutex>
#include <vector>

using namespace llvm;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace gpuguard {

CacheStore::~CacheStore() = default;

namespace {

/// A shared store that does not answer within these is treated as down:
/// checking the file again costs less than waiting on it.
constexpr long ConnectTimeoutMs = 2000;
constexpr long TransferTimeoutMs = 10000;
/// No entry is this large; a server that sends more is not a cache of ours.
constexpr size_t MaxEntryBytes = size_t(64) << 20;

Error failure(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

class DirectoryStore : public CacheStore {
public:
  DirectoryStore(std::string Directory, uint64_t MaxBytes)
      : Directory(std::move(Directory)), MaxBytes(MaxBytes) {}

  std::string name() const override { return Directory; }
  bool isRemote() const override { return false; }

  Expected<std::optional<std::string>> get(StringRef Key) override {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(entryPath(Key), /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    // An entry that cannot be read is as good as none.
    if (!Buffer)
      return std::nullopt;
    return (*Buffer)->getBuffer().str();
  }

  Error put(StringRef Key, StringRef Bytes) override {
    std::string Entry = entryPath(Key);
    if (std::error_code EC = fs::create_directories(path::parent_path(Entry)))
      return failure(EC.message());
    // Readers see the old entry, the new one, or none.
    if (std::error_code EC = support::writeAtomically(Entry, Bytes))
      return failure(EC.message());
    return Error::success();
  }

  void touch(StringRef Key) override {
    // Eviction goes by modification time.
    if (int FD; !fs::openFileForWrite(entryPath(Key), FD, fs::CD_OpenExisting,
                                      fs::OF_Append)) {
      (void)fs::setLastAccessAndModificationTime(
          FD, std::chrono::system_clock::now());
      sys::Process::SafelyCloseFileDescriptor(FD);
    }
  }

  void evict() override {
    std::vector<support::CachedItem> Entries;
    std::error_code EC;
    for (fs::recursive_directory_iterator It(Directory, EC), End;
         It != End && !EC; It.increment(EC)) {
      fs::file_status Status;
      if (fs::status(It->path(), Status) || !fs::is_regular_file(Status))
        continue;
      Entries.push_back(
          {{It->path()}, Status.getSize(), Status.getLastModificationTime()});
    }
    support::evictLeastRecentlyUsed(std::move(Entries), MaxBytes);
  }

private:
  std::string entryPath(StringRef Key) const {
    SmallString<256> Entry(Directory);
    path::append(Entry, Key.take_front(2), Key.drop_front(2) + ".json");
    return std::string(Entry);
  }

  std::string Directory;
  uint64_t MaxBytes;
};

/// Idle connections of a shared store, each used by one thread at a time:
/// the client libraries' handles are not thread-safe, and opening one per
/// request would cost a round trip each.
template <typename Handle, void (*Close)(Handle *)> class ConnectionPool {
public:
  using Owned = std::unique_ptr<Handle, void (*)(Handle *)>;

  /// An idle connection, or a null one when the caller must open one.
  Owned take() {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Idle.empty())
      return Owned(nullptr, Close);
    Owned Connection = std::move(Idle.back());
    Idle.pop_back();
    return Connection;
  }
  void giveBack(Owned Connection) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Idle.push_back(std::move(Connection));
  }

private:
  std::mutex Mutex;
  std::vector<Owned> Idle;
};

/// The parts of a URL a store needs; percent-escapes are decoded in the
/// credentials only.
struct URLParts {
  std::string Scheme, User, Password, Host, Path;
  std::optional<unsigned> Port;
};

std::string percentDecoded(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned Byte;
    if (Text[I] == '%' && I + 2 < Text.size() &&
        !Text.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out.push_back(char(Byte));
      I += 2;
    } else {
      Out.push_back(Text[I]);
    }
  }
  return Out;
}

/// \p URL with its password, if any, left out, for messages.
std::string withoutPassword(StringRef URL) {
  auto [Scheme, Rest] = URL.split("://");
  StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
  size_t At = Authority.rfind('@');
  if (At == StringRef::npos)
    return URL.str();
  StringRef User = Authority.take_front(At).split(':').first;
  return (Scheme + "://" + User + (User.empty() ? "" : "@") +
          Rest.drop_front(At + 1))
      .str();
}

Expected<URLParts> splitURL(StringRef URL) {
  URLParts Parts;
  auto [Scheme, Rest] = URL.split("://");
  if (Rest.empty() && !URL.contains("://"))
    return failure("it has no scheme");
  Parts.Scheme = Scheme.lower();
  auto [Authority, Path] = Rest.split('/');
  Parts.Path = Path.empty() ? "" : ("/" + Path).str();
  if (size_t At = Authority.rfind('@'); At != StringRef::npos) {
    auto [User, Password] = Authority.take_front(At).split(':');
    Parts.User = percentDecoded(User);
    Parts.Password = percentDecoded(Password);
    Authority = Authority.drop_front(At + 1);
  }
  StringRef Host = Authority, Port;
  if (Authority.starts_with("[")) {
    size_t Close = Authority.find(']');
    if (Close == StringRef::npos)
      return failure("its IPv6 address has no ']'");
    Host = Authority.slice(1, Close);
    StringRef After = Authority.drop_front(Close + 1);
    if (!After.empty() && !After.consume_front(":"))
      return failure("it has text after the IPv6 address");
    Port = After;
  } else if (size_t Colon = Authority.rfind(':'); Colon != StringRef::npos) {
    Host = Authority.take_front(Colon);
    Port = Authority.drop_front(Colon + 1);
  }
  if (Host.empty())
    return failure("it names no host");
  Parts.Host = Host.str();
  if (!Port.empty()) {
    unsigned Number;
    if (Port.getAsInteger(10, Number) || Number == 0 || Number > 65535)
      return failure("its port '" + Port + "' is not a number from 1 to 65535");
    Parts.Port = Number;
  }
  return Parts;
}

void closeRedis(redisContext *Context) { redisFree(Context); }

/// Entries as Redis strings under "gpuguard:<key>". Eviction is the
/// server's: a cache instance runs with maxmemory and allkeys-lru.
class RedisStore : public CacheStore {
public:
  RedisStore(StringRef URL, URLParts Parts, unsigned Database)
      : URL(withoutPassword(URL)), Parts(std::move(Parts)), Database(Database) {
  }

  std::string name() const override { return URL; }
  bool isRemote() const override { return true; }

  Expected<std::optional<std::string>> get(StringRef Key) override {
    std::string Name = keyName(Key);
    std::optional<std::string> Value;
    Error E = withConnection([&](redisContext *Redis) -> Error {
      auto *Reply = static_cast<redisReply *>(
          redisCommand(Redis, "GET %b", Name.data(), Name.size()));
      return readReply(Redis, Reply, [&](const redisReply &Answer) -> Error {
        if (Answer.type == REDIS_REPLY_NIL)
          return Error::success();
        if (Answer.type != REDIS_REPLY_STRING)
          return failure("GET answered with something other than a string");
        Value = std::string(Answer.str, Answer.len);
        return Error::success();
      });
    });
    if (E)
      return std::move(E);
    return Value;
  }

  Error put(StringRef Key, StringRef Bytes) override {
    std::string Name = keyName(Key);
    return withConnection([&](redisContext *Redis) -> Error {
      auto *Reply = static_cast<redisReply *>(
          redisCommand(Redis, "SET %b %b", Name.data(), Name.size(),
                       Bytes.data(), Bytes.size()));
      return readReply(Redis, Reply, [](const redisReply &Answer) -> Error {
        if (Answer.type != REDIS_REPLY_STATUS)
          return failure("SET answered with something other than OK");
        return Error::success();
      });
    });
  }

private:
  static std::string keyName(StringRef Key) {
    return ("gpuguard:" + Key).str();
  }

  /// Runs \p Use on a connection, opening one (authenticated, on the
  /// database asked for) when none is idle. A connection that failed is
  /// closed, not reused.
  Error withConnection(function_ref<Error(redisContext *)> Use) {
    ConnectionPool<redisContext, closeRedis>::Owned Redis = Pool.take();
    if (!Redis) {
      Expected<ConnectionPool<redisContext, closeRedis>::Owned> Opened = open();
      if (!Opened)
        return Opened.takeError();
      Redis = std::move(*Opened);
    }
    if (Error E = Use(Redis.get()))
      return E;
    if (Redis->err == 0)
      Pool.giveBack(std::move(Redis));
    return Error::success();
  }

  Expected<ConnectionPool<redisContext, closeRedis>::Owned> open() {
    timeval Connect{ConnectTimeoutMs / 1000, (ConnectTimeoutMs % 1000) * 1000};
    ConnectionPool<redisContext, closeRedis>::Owned Redis(
        redisConnectWithTimeout(Parts.Host.c_str(), Parts.Port.value_or(6379),
                                Connect),
        closeRedis);
    if (!Redis)
      return failure("out of memory");
    if (Redis->err)
      return failure(Redis->errstr);
    timeval Transfer{TransferTimeoutMs / 1000,
                     (TransferTimeoutMs % 1000) * 1000};
    redisSetTimeout(Redis.get(), Transfer);
    auto Expect = [&](void *Reply, const Twine &What) -> Error {
      return readReply(Redis.get(), static_cast<redisReply *>(Reply),
                       [&](const redisReply &Answer) -> Error {
                         if (Answer.type != REDIS_REPLY_STATUS)
                           return failure(What + " was refused");
                         return Error::success();
                       });
    };
    if (!Parts.Password.empty()) {
      void *Reply =
          Parts.User.empty()
              ? redisCommand(Redis.get(), "AUTH %s", Parts.Password.c_str())
              : redisCommand(Redis.get(), "AUTH %s %s", Parts.User.c_str(),
                             Parts.Password.c_str());
      if (Error E = Expect(Reply, "AUTH"))
        return std::move(E);
    }
    if (Database != 0)
      if (Error E = Expect(redisCommand(Redis.get(), "SELECT %u", Database),
                           "SELECT " + Twine(Database)))
        return std::move(E);
    return std::move(Redis);
  }

  /// \p Read applied to \p Reply, or the error the connection or the
  /// server gave instead; frees the reply.
  static Error readReply(redisContext *Redis, redisReply *Reply,
                         function_ref<Error(const redisReply &)> Read) {
    if (!Reply)
      return failure(Redis->errstr[0] ? Redis->errstr : "no answer");
    std::unique_ptr<redisReply, void (*)(void *)> Owned(Reply, freeReplyObject);
    if (Reply->type == REDIS_REPLY_ERROR)
      return failure(StringRef(Reply->str, Reply->len));
    return Read(*Reply);
  }

  std::string URL;
  URLParts Parts;
  unsigned Database;
  ConnectionPool<redisContext, closeRedis> Pool;
};

void closeCurl(CURL *Handle) { curl_easy_cleanup(Handle); }

/// Entries as resources under a base URL: GET BASE/KEY answers 200 with the
/// bytes or 404, PUT BASE/KEY stores them. Eviction is the server's.
class HttpStore : public CacheStore {
public:
  HttpStore(StringRef URL)
      : URL(withoutPassword(URL)), Base(URL.rtrim('/').str()) {}

  std::string name() const override { return URL; }
  bool isRemote() const override { return true; }

  Expected<std::optional<std::string>> get(StringRef Key) override {
    std::string Body;
    Expected<long> Status = transfer(Key, /*Upload=*/std::nullopt, Body);
    if (!Status)
      return Status.takeError();
    if (*Status == 404)
      return std::nullopt;
    if (*Status != 200)
      return failure("GET answered HTTP " + Twine(*Status));
    return Body;
  }

  Error put(StringRef Key, StringRef Bytes) override {
    std::string Body;
    Expected<long> Status = transfer(Key, Bytes, Body);
    if (!Status)
      return Status.takeError();
    if (*Status != 200 && *Status != 201 && *Status != 204)
      return failure("PUT answered HTTP " + Twine(*Status));
    return Error::success();
  }

private:
  struct Upload {
    StringRef Bytes;
    size_t Sent = 0;
  };

  static size_t receive(char *Data, size_t Size, size_t Count, void *Into) {
    auto &Body = *static_cast<std::string *>(Into);
    if (Body.size() + Size * Count > MaxEntryBytes)
      return 0; // Stops the transfer: CURLE_WRITE_ERROR.
    Body.append(Data, Size * Count);
    return Size * Count;
  }
  static size_t send(char *Data, size_t Size, size_t Count, void *From) {
    auto &Sending = *static_cast<Upload *>(From);
    size_t Chunk = std::min(Size * Count, Sending.Bytes.size() - Sending.Sent);
    memcpy(Data, Sending.Bytes.data() + Sending.Sent, Chunk);
    Sending.Sent += Chunk;
    return Chunk;
  }

  /// The HTTP status of a GET (no \p Bytes) or a PUT of \p Bytes to the
  /// key's URL, with the response body in \p Body.
  Expected<long> transfer(StringRef Key, std::optional<StringRef> Bytes,
                          std::string &Body) {
    ConnectionPool<CURL, closeCurl>::Owned Curl = Pool.take();
    if (!Curl)
      Curl =
          ConnectionPool<CURL, closeCurl>::Owned(curl_easy_init(), closeCurl);
    if (!Curl)
      return failure("the HTTP client could not be set up");
    CURL *Handle = Curl.get();
    curl_easy_reset(Handle);
    std::string Address = Base + "/" + Key.str();
    char Error[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(Handle, CURLOPT_URL, Address.c_str());
    curl_easy_setopt(Handle, CURLOPT_ERRORBUFFER, Error);
    // Worker threads: no signals for timeouts.
    curl_easy_setopt(Handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(Handle, CURLOPT_CONNECTTIMEOUT_MS, ConnectTimeoutMs);
    curl_easy_setopt(Handle, CURLOPT_TIMEOUT_MS, TransferTimeoutMs);
    curl_easy_setopt(Handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(Handle, CURLOPT_WRITEFUNCTION, receive);
    curl_easy_setopt(Handle, CURLOPT_WRITEDATA, &Body);
    curl_slist *Headers = nullptr;
    Upload Sending;
    if (Bytes) {
      Sending.Bytes = *Bytes;
      curl_easy_setopt(Handle, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(Handle, CURLOPT_READFUNCTION, send);
      curl_easy_setopt(Handle, CURLOPT_READDATA, &Sending);
      curl_easy_setopt(Handle, CURLOPT_INFILESIZE_LARGE,
                       curl_off_t(Bytes->size()));
      // No round trip waiting for "100 Continue" before each entry.
      Headers = curl_slist_append(Headers, "Expect:");
      Headers = curl_slist_append(Headers, "Content-Type: application/json");
      curl_easy_setopt(Handle, CURLOPT_HTTPHEADER, Headers);
    }
    CURLcode Code = curl_easy_perform(Handle);
    curl_slist_free_all(Headers);
    if (Code != CURLE_OK)
      return failure(Error[0] ? StringRef(Error) : curl_easy_strerror(Code));
    long Status = 0;
    curl_easy_getinfo(Handle, CURLINFO_RESPONSE_CODE, &Status);
    Pool.giveBack(std::move(Curl));
    return Status;
  }

  std::string URL, Base;
  ConnectionPool<CURL, closeCurl> Pool;
};

} // namespace

std::unique_ptr<CacheStore> createDirectoryStore(std::string Directory,
                                                 uint64_t MaxBytes) {
  return std::make_unique<DirectoryStore>(std::move(Directory), MaxBytes);
}

Expected<std::unique_ptr<CacheStore>> createRemoteStore(StringRef URL) {
  auto Unusable = [&](const Twine &Why) {
    return failure("the remote cache '" + withoutPassword(URL) +
                   "' is not usable: " + Why +
                   "; give redis://HOST[:PORT][/DB] or http(s)://HOST[:PORT]"
                   "[/PATH]");
  };
  Expected<URLParts> Parts = splitURL(URL);
  if (!Parts)
    return Unusable(toString(Parts.takeError()));
  if (Parts->Scheme == "redis") {
    unsigned Database = 0;
    StringRef Path =
        StringRef(Parts->Path).drop_while([](char C) { return C == '/'; });
    if (!Path.empty() && Path.getAsInteger(10, Database))
      return Unusable("its path '" + Parts->Path +
                      "' is not a database number");
    return std::make_unique<RedisStore>(URL, std::move(*Parts), Database);
  }
  if (Parts->Scheme == "http" || Parts->Scheme == "https") {
    // Set up once, before any worker thread uses it.
    static const CURLcode Initialized = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (Initialized != CURLE_OK)
      return Unusable(curl_easy_strerror(Initialized));
    return std::make_unique<HttpStore>(URL);
  }
  return Unusable("its scheme '" + Parts->Scheme + "' is neither redis nor " +
                  "http(s)");
}

} // namespace gpuguard
