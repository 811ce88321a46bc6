#if canImport(Glibc)
  import Glibc

  /// Every libc call of the package, in one place, as apple/swift-system's `Syscalls.swift` is its
  /// only caller of libc: the engine's descriptor-relative file access, the CLI's standard
  /// streams, terminal and signals, worker threads, core dumps and libraries opened at run time.
  /// Each returns the C result or the errno; the caller words it (`Platform.message`). Buffers
  /// are raw: a secret stays in the caller's zeroizing memory.
  package enum Platform {
    /// The calling thread's errno.
    package static var errno: Int32 { Glibc.errno }

    /// The system's message for an errno value.
    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Sets the calling thread's errno (to hand a failure on unchanged).
    package static func setErrno(_ code: Int32) { Glibc.errno = code }

    // MARK: Flags and errno values

    package static let readOnly = O_RDONLY
    package static let writeOnly = O_WRONLY
    package static let readWrite = O_RDWR
    package static let create = O_CREAT
    package static let exclusive = O_EXCL
    package static let directory = O_DIRECTORY
    package static let cloexec = O_CLOEXEC
    package static let noFollow = O_NOFOLLOW
    package static let nonBlocking = O_NONBLOCK
    package static let truncate = O_TRUNC

    package static let noEntry = ENOENT
    package static let symbolicLinkLoop = ELOOP
    package static let wouldBlock = EWOULDBLOCK
    package static let tryAgain = EAGAIN
    package static let interrupted = EINTR
    package static let accessDenied = EACCES
    package static let notPermitted = EPERM
    package static let readOnlyFileSystem = EROFS
    package static let noSpace = ENOSPC
    package static let quotaExceeded = EDQUOT
    package static let exists = EEXIST
    package static let notDirectory = ENOTDIR
    package static let isDirectory = EISDIR
    package static let invalidArgument = EINVAL
    package static let notImplemented = ENOSYS
    package static let crossDevice = EXDEV
    package static let argumentListTooLong = E2BIG
    package static let tooManyLinks = EMLINK
    package static let notSupported = EOPNOTSUPP

    // MARK: File types (`st_mode & fileTypeMask`)

    package static let fileTypeMask = UInt32(S_IFMT)
    package static let regularFileType = UInt32(S_IFREG)
    package static let directoryType = UInt32(S_IFDIR)
    package static let symbolicLinkType = UInt32(S_IFLNK)
    package static let fifoType = UInt32(S_IFIFO)
    package static let socketType = UInt32(S_IFSOCK)
    package static let characterDeviceType = UInt32(S_IFCHR)
    package static let blockDeviceType = UInt32(S_IFBLK)

    /// Whether this process runs as root (and so must hand what it creates to the owner).
    package static var isRoot: Bool { geteuid() == 0 }
    /// The effective user id.
    package static var effectiveUser: UInt32 { geteuid() }

    // MARK: Paths the user named (symbolic links followed, except where said)

    /// `open(2)` of `path` with `flags` (O_CLOEXEC and O_NOCTTY always added).
    package static func open(path: String, _ flags: Int32, _ mode: UInt32 = 0) -> Int32 {
      Glibc.open(path, flags | O_CLOEXEC | O_NOCTTY, mode_t(mode))
    }

    /// `stat(2)`: nil with errno set.
    package static func info(path: String) -> FileInfo? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return FileInfo(info)
    }

    /// `lstat(2)` (a symbolic link itself): nil with errno set.
    package static func linkInfo(path: String) -> FileInfo? {
      var info = stat()
      guard Glibc.lstat(path, &info) == 0 else { return nil }
      return FileInfo(info)
    }

    package static func mkdir(path: String, _ mode: UInt32) -> Int32 {
      Glibc.mkdir(path, mode_t(mode))
    }
    package static func rmdir(path: String) -> Int32 { Glibc.rmdir(path) }
    package static func unlink(path: String) -> Int32 { Glibc.unlink(path) }
    package static func link(path from: String, _ to: String) -> Int32 { Glibc.link(from, to) }
    package static func rename(path from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    /// `realpath(3)`: the absolute path with every link and `.`/`..` resolved, or nil.
    package static func realPath(_ path: String) -> String? {
      guard let resolved = Glibc.realpath(path, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }

    // MARK: Descriptors

    /// `open(2)` of a path the user gave (symbolic links followed): only the node directory
    /// itself is opened this way.
    package static func openDirectory(path: String) -> Int32 {
      Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
    }

    /// `openat(2)` with `flags` (O_CLOEXEC and O_NOCTTY always added).
    package static func openat(
      _ directory: Int32, _ name: String, _ flags: Int32, _ mode: UInt32 = 0
    )
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
    package static func openBeneath(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
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

    package static func close(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
    package static func dup(_ descriptor: Int32) -> Int32 { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
    package static func fsync(_ descriptor: Int32) -> Int32 { Glibc.fsync(descriptor) }
    package static func fchmod(_ descriptor: Int32, _ mode: UInt32) -> Int32 {
      Glibc.fchmod(descriptor, mode_t(mode))
    }
    package static func fchown(_ descriptor: Int32, _ user: UInt32, _ group: UInt32) -> Int32 {
      Glibc.fchown(descriptor, user, group)
    }

    /// `fstat(2)`: nil with errno set on failure.
    package static func info(_ descriptor: Int32) -> FileInfo? {
      var info = stat()
      guard Glibc.fstat(descriptor, &info) == 0 else { return nil }
      return FileInfo(info)
    }

    /// What `accessat` asks: may create, rename and remove names in a directory.
    package static let mayWriteIn = W_OK | X_OK
    /// What `accessat` asks: may read and write a file (what a hard link to a file another user
    /// owns needs, under fs.protected_hardlinks).
    package static let mayReadAndWrite = R_OK | W_OK

    /// `faccessat(2)` of `name` in `directory` with the effective ids, a symbolic link not
    /// followed: 0 when `mode` is allowed, else the errno (EACCES, EPERM for an immutable
    /// file, EROFS).
    package static func accessat(_ directory: Int32, _ name: String, _ mode: Int32) -> Int32 {
      Glibc.faccessat(directory, name, mode, AT_EACCESS | AT_SYMLINK_NOFOLLOW) == 0
        ? 0 : Glibc.errno
    }

    /// `access(2)` of a path the user named, links followed, with the effective ids: 0 when
    /// `mode` is allowed, else the errno.
    package static func access(path: String, _ mode: Int32) -> Int32 {
      Glibc.faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0 ? 0 : Glibc.errno
    }

    /// `fstatat(2)` of `name` itself (a symbolic link is not followed): nil with errno set.
    package static func linkInfo(_ directory: Int32, _ name: String) -> FileInfo? {
      var info = stat()
      guard Glibc.fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
      return FileInfo(info)
    }

    // MARK: Names

    package static func mkdirat(_ directory: Int32, _ name: String, _ mode: UInt32) -> Int32 {
      Glibc.mkdirat(directory, name, mode_t(mode))
    }
    package static func unlinkat(_ directory: Int32, _ name: String, directory isDirectory: Bool)
      -> Int32
    {
      Glibc.unlinkat(directory, name, isDirectory ? AT_REMOVEDIR : 0)
    }
    /// `linkat(2)` without following a symbolic link at `from`.
    package static func linkat(
      _ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String
    )
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
    package static var hasRenameat2: Bool { renameat2Function != nil }

    /// `renameat2(2)`; flags 0 is `renameat(2)`.
    package static func renameat(
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
    package static func names(_ descriptor: Int32) -> [String]? {
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

    /// Standard input, output and error.
    package static let standardInput = STDIN_FILENO
    package static let standardOutput = STDOUT_FILENO
    package static let standardError = STDERR_FILENO

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The names in the directory at `path` (links followed; not `.` and `..`), sorted; nil with
    /// errno set.
    package static func names(path: String) -> [String]? {
      let descriptor = openDirectory(path: path)
      guard descriptor >= 0 else { return nil }
      defer { _ = Glibc.close(descriptor) }
      return names(descriptor)
    }

    /// Writes all of `buffer`, retrying writes a signal interrupted: nil, or the errno.
    package static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
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
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
      while true {
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        if count < 0, Glibc.errno == EINTR { continue }
        return count
      }
    }

    /// Reads `descriptor` until its end or until `buffer` is full (reads a signal interrupted
    /// are retried): the count read, and the errno of a failed read, else 0.
    package static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
      -> (count: Int, errno: Int32)
    {
      var filled = 0
      while filled < buffer.count {
        let count = read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        if count == 0 { break }
        if count < 0 { return (filled, Glibc.errno) }
        filled += count
      }
      return (filled, 0)
    }

    /// Reads `descriptor` from byte `offset` until its end or until `buffer` is full, leaving
    /// the file position alone (`pread(2)`, safe from several threads at once; reads a signal
    /// interrupted are retried): the count read, and the errno of a failed read, else 0.
    package static func readAll(
      _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
    ) -> (count: Int, errno: Int32) {
      var filled = 0
      while filled < buffer.count {
        let count = pread(
          descriptor, buffer.baseAddress! + filled, buffer.count - filled,
          off_t(offset) + off_t(filled))
        if count < 0, Glibc.errno == EINTR { continue }
        if count == 0 { break }
        if count < 0 { return (filled, Glibc.errno) }
        filled += count
      }
      return (filled, 0)
    }

    // MARK: Locks

    /// `flock(2)` without waiting: 0, or -1 with errno (EWOULDBLOCK when another holds it).
    package static func tryLock(_ descriptor: Int32, shared: Bool = false) -> Int32 {
      flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB)
    }

    /// An fcntl write lock on the whole file `descriptor` (the kind kubo's daemon holds),
    /// without waiting: 0, or -1 with errno (EAGAIN or EACCES when another process holds it).
    package static func tryWriteLockRecord(_ descriptor: Int32) -> Int32 {
      var lock = wholeFileWriteLock()
      return fcntl(descriptor, F_SETLK, &lock)
    }

    /// The process that holds a conflicting fcntl lock on `descriptor`, if one is known.
    package static func writeLockHolder(_ descriptor: Int32) -> Int32? {
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
    package static func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    package static func sleep(microseconds: UInt32) { usleep(microseconds) }

    /// Ends the process with `status`.
    package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    // MARK: Libraries opened at run time

    /// The first of `names` that `dlopen` can load (RTLD_NOW, RTLD_LOCAL), or nil.
    package static func openLibrary(_ names: [String]) -> UnsafeMutableRawPointer? {
      names.lazy.compactMap { dlopen($0, RTLD_NOW | RTLD_LOCAL) }.first
    }

    /// `dlsym(library, name)` as a function of type `T`, or nil.
    package static func symbol<T>(
      _ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type
    )
      -> T?
    {
      dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }

    // MARK: Core dumps

    /// `setrlimit(RLIMIT_CORE, 0)` and `prctl(PR_SET_DUMPABLE, 0)`: true when both held.
    package static func forbidCoreDumps() -> Bool {
      var none = rlimit(rlim_cur: 0, rlim_max: 0)
      let limited = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
      guard let prctl else { return false }
      return prctl(setDumpable, 0, 0, 0, 0) == 0 && limited
    }

    /// `PR_SET_DUMPABLE` of <linux/prctl.h>, which Glibc's module does not export.
    private static let setDumpable: Int32 = 4
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    /// glibc's variadic `prctl`, which Swift cannot import; on the Linux ABIs (x86-64, AArch64)
    /// a variadic call with integer arguments passes them as a fixed call does.
    private static let prctl: Prctl? = dlsym(nil, "prctl").map {
      unsafeBitCast($0, to: Prctl.self)
    }

    // MARK: Signals

    /// The signals Swift's backtracer handles on Linux, plus SIGSYS.
    package static let fatalSignals = [
      SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT, SIGSYS,
    ]

    /// Replaces the handlers of every fatal signal with one that writes `line` to standard error
    /// and dies by the signal (its own status, no core file), run on its own stack so that a
    /// stack overflow is reported too.
    package static func installCrashHandler(line: StaticString) {
      crashLine = line
      let stackSize = 64 * 1024
      var alternateStack = stack_t(
        ss_sp: UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16), ss_flags: 0,
        ss_size: stackSize)
      _ = sigaltstack(&alternateStack, nil)

      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signal in
        // Only async-signal-safe calls: a line set before (no allocation), write(2), raise(3).
        let line = crashLine
        _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
        // SA_RESETHAND restored the default action: the signal, blocked until we return, then
        // ends the process with its own status.
        _ = raise(signal)
      }
      action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
      sigemptyset(&action.sa_mask)
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      for signal in fatalSignals {
        _ = sigaction(signal, &action, nil)
        sigaddset(&unblocked, signal)
      }
      // A mask inherited from the parent (a test runner's thread, say) must not hold them back.
      _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Calls `handler` on SIGINT and SIGTERM (unblocked for this thread and the threads it
    /// starts: a parent may have blocked them, and the mask is inherited).
    package static func catchInterrupts(_ handler: @convention(c) (Int32) -> Void) {
      _ = signal(SIGINT, handler)
      _ = signal(SIGTERM, handler)
      var interrupt = sigset_t()
      sigemptyset(&interrupt)
      sigaddset(&interrupt, SIGINT)
      sigaddset(&interrupt, SIGTERM)
      pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }

    /// Gives SIGINT and SIGTERM back their default action.
    package static func defaultInterrupts() {
      _ = signal(SIGINT, SIG_DFL)
      _ = signal(SIGTERM, SIG_DFL)
    }

    // MARK: Terminal

    private static let terminalInterruptions = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body` with echo off on the terminal standard input is (`body` is told whether it
    /// is one), and restores the terminal on every path: after `body`, and in a handler that
    /// then lets Ctrl-C, SIGTERM, SIGHUP or SIGQUIT do what it would have done.
    package static func withEchoOff<R>(_ body: (_ isTerminal: Bool) -> R) -> R {
      var original = termios()
      let isTerminal = tcgetattr(STDIN_FILENO, &original) == 0
      var previousHandlers: [sighandler_t?] = []
      var previousMask = sigset_t()
      if isTerminal {
        settingsToRestore = original
        previousHandlers = terminalInterruptions.map { signal($0, restoreTerminalAndReraise) }
        // A parent may have started us with these blocked (Foundation's Process does); Ctrl-C
        // must still end the prompt.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in terminalInterruptions { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &previousMask)
        var hidden = original
        hidden.c_lflag &= ~tcflag_t(ECHO)
        // Discards anything typed ahead: it was shown on the screen before echo went off.
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
      }
      defer {
        if isTerminal {
          _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
          pthread_sigmask(SIG_SETMASK, &previousMask, nil)
          for (signalNumber, handler) in zip(terminalInterruptions, previousHandlers) {
            _ = signal(signalNumber, handler)
          }
        }
      }
      return body(isTerminal)
    }

    // MARK: Threads

    /// Starts `body` on a new detached thread with a `stackSize`-byte stack; false if the system
    /// refused to create one.
    package static func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void)
      -> Bool
    {
      final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
      }
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setstacksize(&attributes, stackSize)
      pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
      let context = Unmanaged.passRetained(Body(body)).toOpaque()
      var thread = pthread_t()
      let created = pthread_create(
        &thread, &attributes,
        { context in
          Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
          return nil
        }, context)
      if created != 0 { Unmanaged<Body>.fromOpaque(context).release() }
      return created == 0
    }
  }

  /// The line the crash handler writes: set once before the handlers are installed, only read
  /// afterwards.
  nonisolated(unsafe) private var crashLine: StaticString = ""

  /// The terminal settings a signal handler puts back if the process is interrupted while echo
  /// is off. Written once before the handlers are installed, only read afterwards.
  nonisolated(unsafe) private var settingsToRestore = termios()

  /// Restores the terminal, then lets the signal do what it would have done.
  private func restoreTerminalAndReraise(_ signal: Int32) {
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &settingsToRestore)
    _ = write(STDERR_FILENO, "\n", 1)
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
  }
  /// What `stat(2)` says, as plain numbers.
  package struct FileInfo: Sendable, Equatable {
    /// The type and permission bits.
    package let mode: UInt32
    package let owner: UInt32
    package let group: UInt32
    package let inode: UInt64
    package let device: UInt64
    /// The size in bytes.
    package let size: Int64
    /// The last modification, in nanoseconds since the epoch.
    package let modified: Int64

    init(_ info: stat) {
      mode = UInt32(info.st_mode)
      owner = info.st_uid
      group = info.st_gid
      inode = UInt64(info.st_ino)
      device = UInt64(info.st_dev)
      size = Int64(info.st_size)
      modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// The file type bits (`mode & Platform.fileTypeMask`).
    package var type: UInt32 { mode & Platform.fileTypeMask }
  }
#else
  #error("SystemCalls needs Linux's descriptor-relative file calls (Glibc)")
#endif
