#if canImport(Glibc)
  import Glibc

  /// Every system call the engine's descriptor-relative file access (`DirectoryDescriptor`) is
  /// built from, in one place, as apple/swift-system keeps its platform differences in one file.
  /// Each returns the C result; the caller reads `Platform.errno` and maps it with
  /// `NodeFileError.system`.
  enum Platform {
    /// The calling thread's errno.
    static var errno: Int32 { Glibc.errno }

    /// The system's message for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Sets the calling thread's errno (to hand a failure on unchanged).
    static func setErrno(_ code: Int32) { Glibc.errno = code }

    // MARK: Flags and errno values

    static let readOnly = O_RDONLY
    static let writeOnly = O_WRONLY
    static let readWrite = O_RDWR
    static let create = O_CREAT
    static let exclusive = O_EXCL
    static let directory = O_DIRECTORY
    static let cloexec = O_CLOEXEC
    static let noFollow = O_NOFOLLOW
    static let nonBlocking = O_NONBLOCK

    static let noEntry = ENOENT
    static let symbolicLinkLoop = ELOOP
    static let wouldBlock = EWOULDBLOCK
    static let tryAgain = EAGAIN
    static let interrupted = EINTR
    static let accessDenied = EACCES
    static let notPermitted = EPERM
    static let readOnlyFileSystem = EROFS
    static let noSpace = ENOSPC
    static let quotaExceeded = EDQUOT
    static let exists = EEXIST
    static let notDirectory = ENOTDIR
    static let isDirectory = EISDIR
    static let invalidArgument = EINVAL
    static let notImplemented = ENOSYS
    static let crossDevice = EXDEV
    static let argumentListTooLong = E2BIG
    static let tooManyLinks = EMLINK
    static let notSupported = EOPNOTSUPP

    // MARK: File types (`st_mode & fileTypeMask`)

    static let fileTypeMask = UInt32(S_IFMT)
    static let regularFileType = UInt32(S_IFREG)
    static let directoryType = UInt32(S_IFDIR)
    static let symbolicLinkType = UInt32(S_IFLNK)
    static let fifoType = UInt32(S_IFIFO)
    static let socketType = UInt32(S_IFSOCK)
    static let characterDeviceType = UInt32(S_IFCHR)
    static let blockDeviceType = UInt32(S_IFBLK)

    /// Whether this process runs as root (and so must hand what it creates to the owner).
    static var isRoot: Bool { geteuid() == 0 }
    /// The effective user id.
    static var effectiveUser: UInt32 { geteuid() }

    // MARK: Paths the user named (symbolic links followed, except where said)

    /// `open(2)` of `path` with `flags` (O_CLOEXEC and O_NOCTTY always added).
    static func open(path: String, _ flags: Int32, _ mode: UInt32 = 0) -> Int32 {
      Glibc.open(path, flags | O_CLOEXEC | O_NOCTTY, mode_t(mode))
    }

    /// `stat(2)`: nil with errno set.
    static func statFollowing(path: String) -> FileStatus? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return FileStatus(info)
    }

    /// `lstat(2)` (a symbolic link itself): nil with errno set.
    static func lstat(path: String) -> FileStatus? {
      var info = stat()
      guard Glibc.lstat(path, &info) == 0 else { return nil }
      return FileStatus(info)
    }

    static func mkdir(path: String, _ mode: UInt32) -> Int32 { Glibc.mkdir(path, mode_t(mode)) }
    static func rmdir(path: String) -> Int32 { Glibc.rmdir(path) }
    static func unlink(path: String) -> Int32 { Glibc.unlink(path) }
    static func link(path from: String, _ to: String) -> Int32 { Glibc.link(from, to) }
    static func rename(path from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    /// `realpath(3)`: the absolute path with every link and `.`/`..` resolved, or nil.
    static func realPath(_ path: String) -> String? {
      guard let resolved = Glibc.realpath(path, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }

    // MARK: Descriptors

    /// `open(2)` of a path the user gave (symbolic links followed): only the node directory
    /// itself is opened this way.
    static func openDirectory(path: String) -> Int32 {
      Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
    }

    /// `openat(2)` with `flags` (O_CLOEXEC and O_NOCTTY always added).
    static func openat(_ directory: Int32, _ name: String, _ flags: Int32, _ mode: UInt32 = 0)
      -> Int32
    {
      Glibc.openat(directory, name, flags | O_CLOEXEC | O_NOCTTY, mode_t(mode))
    }

    private struct OpenHow {
      var flags: UInt64
      var mode: UInt64
      var resolve: UInt64
    }
    private typealias Syscall =
      @convention(c) (Int, Int32, UnsafePointer<CChar>, UnsafeRawPointer, Int) -> Int
    /// glibc's variadic `syscall`, which Swift cannot import; on the Linux ABIs (x86-64,
    /// AArch64) a variadic call with integer arguments passes them as a fixed call does.
    private static let syscall: Syscall? = dlsym(nil, "syscall").map {
      unsafeBitCast($0, to: Syscall.self)
    }
    #if arch(x86_64) || arch(arm64)
      private static let openat2Number = 437
    #else
      private static let openat2Number = -1
    #endif
    /// `RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH`.
    private static let beneathOnly: UInt64 = 0x04 | 0x08

    /// `openat2(2)` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`: a descriptor for `path` below
    /// `directory`, or -1 with errno set; errno ENOSYS when the kernel (before 5.6) or the
    /// architecture has no openat2, and the caller walks the components itself.
    static func openBeneath(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
      guard let syscall, openat2Number > 0 else {
        Glibc.errno = ENOSYS
        return -1
      }
      var how = OpenHow(
        flags: UInt64(UInt32(bitPattern: flags | O_CLOEXEC | O_NOCTTY)), mode: 0,
        resolve: beneathOnly)
      return withUnsafePointer(to: &how) { pointer in
        Int32(
          truncatingIfNeeded: syscall(
            openat2Number, directory, path, UnsafeRawPointer(pointer),
            MemoryLayout<OpenHow>.size))
      }
    }

    static func close(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
    static func dup(_ descriptor: Int32) -> Int32 { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
    static func fsync(_ descriptor: Int32) -> Int32 { Glibc.fsync(descriptor) }
    static func fchmod(_ descriptor: Int32, _ mode: UInt32) -> Int32 {
      Glibc.fchmod(descriptor, mode_t(mode))
    }
    static func fchown(_ descriptor: Int32, _ user: UInt32, _ group: UInt32) -> Int32 {
      Glibc.fchown(descriptor, user, group)
    }

    /// `fstat(2)`: nil with errno set on failure.
    static func fstat(_ descriptor: Int32) -> FileStatus? {
      var info = stat()
      guard Glibc.fstat(descriptor, &info) == 0 else { return nil }
      return FileStatus(info)
    }

    /// What `accessat` asks: may create, rename and remove names in a directory.
    static let mayWriteIn = W_OK | X_OK
    /// What `accessat` asks: may read and write a file (what a hard link to a file another user
    /// owns needs, under fs.protected_hardlinks).
    static let mayReadAndWrite = R_OK | W_OK

    /// `faccessat(2)` of `name` in `directory` with the effective ids, a symbolic link not
    /// followed: 0 when `mode` is allowed, else the errno (EACCES, EPERM for an immutable
    /// file, EROFS).
    static func accessat(_ directory: Int32, _ name: String, _ mode: Int32) -> Int32 {
      Glibc.faccessat(directory, name, mode, AT_EACCESS | AT_SYMLINK_NOFOLLOW) == 0
        ? 0 : Glibc.errno
    }

    /// `access(2)` of a path the user named, links followed, with the effective ids: 0 when
    /// `mode` is allowed, else the errno.
    static func access(path: String, _ mode: Int32) -> Int32 {
      Glibc.faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0 ? 0 : Glibc.errno
    }

    /// `fstatat(2)` of `name` itself (a symbolic link is not followed): nil with errno set.
    static func lstatat(_ directory: Int32, _ name: String) -> FileStatus? {
      var info = stat()
      guard Glibc.fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
      return FileStatus(info)
    }

    // MARK: Names

    static func mkdirat(_ directory: Int32, _ name: String, _ mode: UInt32) -> Int32 {
      Glibc.mkdirat(directory, name, mode_t(mode))
    }
    static func unlinkat(_ directory: Int32, _ name: String, directory isDirectory: Bool) -> Int32 {
      Glibc.unlinkat(directory, name, isDirectory ? AT_REMOVEDIR : 0)
    }
    /// `linkat(2)` without following a symbolic link at `from`.
    static func linkat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String)
      -> Int32
    {
      Glibc.linkat(fromDirectory, from, toDirectory, to, 0)
    }

    private typealias Renameat2 =
      @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's `renameat2`, which Swift's Glibc module does not declare (glibc 2.28 and later).
    private static let renameat2Function: Renameat2? = dlsym(nil, "renameat2").map {
      unsafeBitCast($0, to: Renameat2.self)
    }
    /// Whether `renameat2` with flags is available.
    static var hasRenameat2: Bool { renameat2Function != nil }

    /// `renameat2(2)`; flags 0 is `renameat(2)`.
    static func renameat(
      _ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String, flags: UInt32
    ) -> Int32 {
      if flags == 0 { return Glibc.renameat(fromDirectory, from, toDirectory, to) }
      guard let renameat2Function else {
        Glibc.errno = ENOSYS
        return -1
      }
      return renameat2Function(fromDirectory, from, toDirectory, to, flags)
    }

    /// The names in the directory `descriptor` (not `.` and `..`), sorted; nil with errno set.
    /// The descriptor stays open (a duplicate is read).
    static func names(_ descriptor: Int32) -> [String]? {
      let copy = dup(descriptor)
      guard copy >= 0 else { return nil }
      guard let stream = fdopendir(copy) else {
        let code = Glibc.errno
        _ = Glibc.close(copy)
        Glibc.errno = code
        return nil
      }
      defer { closedir(stream) }
      rewinddir(stream)
      var names: [String] = []
      while let entry = readdir(stream) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
          $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != ".", name != ".." { names.append(name) }
      }
      return names.sorted()
    }

    // MARK: Reading and writing

    /// Writes all of `buffer`, retrying writes a signal interrupted: nil, or the errno.
    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if Glibc.errno == EINTR { continue }
          return Glibc.errno
        }
        offset += written
      }
      return nil
    }

    /// `read(2)` into `buffer`, retried on EINTR: the count, or -1 with errno set.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
      while true {
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        if count < 0, Glibc.errno == EINTR { continue }
        return count
      }
    }

    // MARK: Locks

    /// `flock(2)` without waiting: 0, or -1 with errno (EWOULDBLOCK when another holds it).
    static func tryLock(_ descriptor: Int32, shared: Bool = false) -> Int32 {
      flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB)
    }

    /// An fcntl write lock on the whole file `descriptor` (the kind kubo's daemon holds),
    /// without waiting: 0, or -1 with errno (EAGAIN or EACCES when another process holds it).
    static func tryWriteLockRecord(_ descriptor: Int32) -> Int32 {
      var lock = wholeFileWriteLock()
      return fcntl(descriptor, F_SETLK, &lock)
    }

    /// The process that holds a conflicting fcntl lock on `descriptor`, if one is known.
    static func writeLockHolder(_ descriptor: Int32) -> Int32? {
      var probe = wholeFileWriteLock()
      guard fcntl(descriptor, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK),
        probe.l_pid > 0
      else { return nil }
      return probe.l_pid
    }

    private static func wholeFileWriteLock() -> flock {
      var lock = flock()
      lock.l_type = Int16(F_WRLCK)
      lock.l_whence = Int16(SEEK_SET)
      lock.l_start = 0
      lock.l_len = 0
      return lock
    }

    /// A monotonic clock in seconds.
    static func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func sleep(microseconds: UInt32) { usleep(microseconds) }
  }
  extension FileStatus {
    init(_ info: stat) {
      self.init(
        mode: UInt32(info.st_mode), owner: info.st_uid, group: info.st_gid,
        inode: UInt64(info.st_ino), device: UInt64(info.st_dev), size: Int64(info.st_size))
    }
  }
#else
  #error("NodeFiles needs Linux's descriptor-relative file calls (Glibc)")
#endif
