#ifndef LOADAUDIT_FOLDER_ENTRIES_H
#define LOADAUDIT_FOLDER_ENTRIES_H

#include <stdint.h>

/// A folder's entries as the kernel lists them, read with one `open`, one `fstat` (only when the
/// identity is asked for), `getdents64` to the end and one `close`: what `opendir`, `readdir`,
/// `closedir` and an `fstat` of `dirfd` do, less `opendir`'s own `fstat`, which it does not share.
typedef struct {
    /// The kernel's `linux_dirent64` records, `length` bytes (malloc'd; `loadaudit_folder_free`).
    uint8_t *records;
    long length;
    /// The folder's device and inode, when asked for and `fstat` answered (`identified` is 1).
    uint64_t device;
    uint64_t inode;
    int identified;
} loadaudit_folder;

/// Reads the folder at `path` into `folder` (with its identity when `identify` is non-zero). 1 when
/// read; 0 when it cannot be opened (errno says why); -1 where this is not built (not Linux): the
/// caller reads with `readdir`. An error of `getdents64` after the open ends the list there, as
/// `readdir` returning NULL does.
int loadaudit_folder_read(const char *path, int identify, loadaudit_folder *folder);

/// The record at `offset` of a folder read: its name (NUL-terminated, inside the records) and type
/// (`DT_REG`, `DT_DIR`, `DT_LNK`, `DT_UNKNOWN`, ...). Returns the next record's offset, or -1 at the end.
long loadaudit_folder_entry(const loadaudit_folder *folder, long offset, const char **name, uint8_t *type);

void loadaudit_folder_free(loadaudit_folder *folder);

#endif
