// ChildProcess: runs a program (git) and collects its output and status, without Foundation's
// polling. It must not know what git is asked.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a program to its end and collects what it printed. Foundation's `Process.waitUntilExit` on
/// Linux polls its run loop every 50 ms, which was most of a small scan's time (one `git ls-files` per
/// scanned folder); this waits with `poll` and `waitpid`, so it returns when the child does.
public enum ChildProcess {
    public struct Outcome {
        /// The exit status, or 128 + the signal number when a signal ended it (as shells report).
        public let status: Int32
        public let output: [UInt8]
        public let errors: [UInt8]
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    /// The first executable `name` (`git`) in the folders of `PATH`, as a shell finds it (a git
    /// installed under /opt or in a CI image's own folder included), then in the usual system and
    /// Homebrew folders for a caller with no `PATH`; nil when there is none.
    public static func executable(named name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let folders = (path ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return folders.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 && !isDirectory($0) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Held from making a run's pipes until its child has them and the parent's write ends are closed:
    /// a child started meanwhile on another thread (a report's git questions run beside the scan's)
    /// would otherwise inherit those write ends, and the first run would wait for that child's end
    /// too before its output ends.
    private static let spawning = NSLock()

    /// Runs `executable` with `arguments` (no shell) and the current environment; standard input is
    /// empty, standard output and error are read to their end while the child runs.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        spawning.lock()
        var locked = true
        defer { if locked { spawning.unlock() } }
        guard pipe(&outputPipe) == 0 else { throw LaunchError(executable: executable, code: errno) }
        guard pipe(&errorPipe) == 0 else {
            let code = errno
            close(outputPipe[0]); close(outputPipe[1])
            throw LaunchError(executable: executable, code: code)
        }
        // Nor does a program another part of the process starts inherit them (the child's own
        // standard output and error are copies, which `exec` keeps).
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        defer {
            close(outputPipe[0])
            close(errorPipe[0])
        }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for descriptor in [outputPipe[0], outputPipe[1], errorPipe[0], errorPipe[1]] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        spawning.unlock()
        locked = false
        guard spawned == 0 else { throw LaunchError(executable: executable, code: spawned) }

        // Both pipes at once: a child blocked on a full one would never exit.
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [outputPipe[0], errorPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var watched = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in watched where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
                if count > 0 {
                    if entry.fd == outputPipe[0] { output += buffer[0..<count] } else { errors += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }

        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: exitStatus, output: output, errors: errors)
    }
}
