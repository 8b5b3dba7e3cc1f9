// CFolderEntries: a folder's entries with one system call fewer than `opendir` costs, for the scan's
// walk (`SourceDiscovery.entries(of:)`), where a large tree has thousands of folders. Linux only; it
// knows nothing of Swift files or of the walk.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "folder_entries.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/// The layout of a `linux_dirent64` record: inode (8 bytes), offset (8), record length (2), type (1), name.
#define RECORD_LENGTH_AT 16
#define TYPE_AT 18
#define NAME_AT 19

int loadaudit_folder_read(const char *path, int identify, loadaudit_folder *folder) {
    memset(folder, 0, sizeof *folder);
    // The flags `opendir` opens with.
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    if (identify) {
        struct stat info;
        if (fstat(descriptor, &info) == 0) {
            folder->device = (uint64_t)info.st_dev;
            folder->inode = (uint64_t)info.st_ino;
            folder->identified = 1;
        }
    }
    // `opendir`'s buffer size; grown while a call fills what is left to under a record's largest size.
    long capacity = 32768, length = 0;
    uint8_t *records = malloc((size_t)capacity);
    while (records != NULL) {
        if (capacity - length < 4096) {
            uint8_t *grown = realloc(records, (size_t)capacity * 2);
            if (grown == NULL) break;
            records = grown;
            capacity *= 2;
        }
        ssize_t read = getdents64(descriptor, records + length, (size_t)(capacity - length));
        if (read <= 0) break;
        length += (long)read;
    }
    int saved = errno;
    close(descriptor);
    errno = saved;
    folder->records = records;
    folder->length = records == NULL ? 0 : length;
    return 1;
}

long loadaudit_folder_entry(const loadaudit_folder *folder, long offset, const char **name, uint8_t *type) {
    if (offset + NAME_AT >= folder->length) return -1;
    const uint8_t *record = folder->records + offset;
    uint16_t record_length;
    memcpy(&record_length, record + RECORD_LENGTH_AT, sizeof record_length);
    if (record_length == 0) return -1;
    *type = record[TYPE_AT];
    *name = (const char *)(record + NAME_AT);
    return offset + record_length;
}
#else
int loadaudit_folder_read(const char *path, int identify, loadaudit_folder *folder) {
    (void)path;
    (void)identify;
    memset(folder, 0, sizeof *folder);
    return -1;
}

long loadaudit_folder_entry(const loadaudit_folder *folder, long offset, const char **name, uint8_t *type) {
    (void)folder;
    (void)offset;
    (void)name;
    (void)type;
    return -1;
}
#endif

void loadaudit_folder_free(loadaudit_folder *folder) {
    free(folder->records);
    folder->records = NULL;
    folder->length = 0;
}
