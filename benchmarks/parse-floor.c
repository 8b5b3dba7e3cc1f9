// The least work any tool must do to audit a tree with a whole-file tree-sitter parser: read every
// .swift file once, and parse exactly the files that hold a finding. Nothing else: no rules, no
// search, no report. The benchmark (scripts/benchmark) times it beside loadaudit and rg. Such a tool
// can shave a little off it (another way to read, a faster walk), not much: where this program alone
// takes about 3x rg's time, "within 3x of rg" is out of reach on that machine.
//
//   parse-floor [--jobs N] ROOT LIST
//
// ROOT is walked as loadaudit walks it (.git, .swiftpm, .build*, Pods, Carthage, DerivedData and
// SourcePackages skipped), with two differences that make the counts differ in some trees: symbolic
// links are not followed, and .gitignore is not read. The benchmark's trees have neither links nor git.
// N threads (default: all cores) share a stack of folders, as rg's walker does. Each .swift file is read whole (open, fstat, read, close); the
// files named in LIST (paths relative to ROOT, one a line: the files loadaudit's report names) are also
// parsed, in loadaudit's parse arena. It prints what it read and parsed; exit 0, or 2 on bad usage or
// an unreadable ROOT or LIST.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tree_sitter/api.h>

#include "parse_arena.h"

const TSLanguage *tree_sitter_swift(void);

// ---- the files to parse: an open-addressing set of relative paths -----------------------------------
static char **wanted;
static size_t wanted_slots;

static uint64_t hash_of(const char *text) {
    uint64_t hash = 1469598103934665603ULL;
    for (; *text; text++) hash = (hash ^ (uint8_t)*text) * 1099511628211ULL;
    return hash;
}

// The slot that holds `path`, or the empty slot where it would go.
static size_t slot_of(const char *path) {
    size_t slot = hash_of(path) & (wanted_slots - 1);
    while (wanted[slot] && strcmp(wanted[slot], path) != 0) slot = (slot + 1) & (wanted_slots - 1);
    return slot;
}

static void want(const char *path) {
    size_t slot = slot_of(path);
    if (!wanted[slot]) wanted[slot] = strdup(path);
}

static int is_wanted(const char *path) { return wanted[slot_of(path)] != NULL; }

static int load_list(const char *list_path) {
    FILE *list = fopen(list_path, "r");
    if (!list) return -1;
    size_t lines = 0;
    for (int c; (c = fgetc(list)) != EOF;) lines += c == '\n';
    for (wanted_slots = 16; wanted_slots < 2 * (lines + 1);) wanted_slots *= 2;
    wanted = calloc(wanted_slots, sizeof *wanted);
    rewind(list);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, list)) > 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        if (length > 0) want(line);
    }
    free(line);
    fclose(list);
    return 0;
}

// ---- the shared stack of folders still to read --------------------------------------------------------
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static char **folders;
static size_t folder_count, folder_capacity;
static int busy_workers;
static size_t root_length;

static void push_folder(char *path) {
    pthread_mutex_lock(&lock);
    if (folder_count == folder_capacity) {
        folder_capacity = folder_capacity ? 2 * folder_capacity : 256;
        folders = realloc(folders, folder_capacity * sizeof *folders);
    }
    folders[folder_count++] = path;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
}

// The next folder, or NULL once the stack is empty and no worker can add to it.
static char *pop_folder(void) {
    pthread_mutex_lock(&lock);
    busy_workers--;
    while (folder_count == 0 && busy_workers > 0) pthread_cond_wait(&changed, &lock);
    char *path = NULL;
    if (folder_count > 0) {
        path = folders[--folder_count];
        busy_workers++;
    } else {
        pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
    return path;
}

// SourceDiscovery.isSkippedFolder's rule.
static int skipped_folder(const char *name) {
    static const char *const names[] = {".git", "Pods", "Carthage", "DerivedData", ".swiftpm", "SourcePackages"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (strcmp(name, names[i]) == 0) return 1;
    }
    return strncmp(name, ".build", 6) == 0;
}

static int is_swift(const char *name) {
    size_t length = strlen(name);
    return length > 6 && strcmp(name + length - 6, ".swift") == 0;
}

// ---- the workers ---------------------------------------------------------------------------------------
typedef struct {
    uint8_t *buffer;
    size_t capacity;
    size_t files_read, bytes_read, files_parsed, bytes_parsed, nodes;
} Worker;

static void parse(Worker *worker, const uint8_t *bytes, size_t length) {
    int opened = loadaudit_arena_open();
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_swift());
    TSTree *tree = ts_parser_parse_string(parser, NULL, (const char *)bytes, (uint32_t)length);
    if (tree) worker->nodes += ts_node_child_count(ts_tree_root_node(tree));
    worker->files_parsed++;
    worker->bytes_parsed += length;
    if (opened) {
        loadaudit_arena_close(4 << 20);  // the parser and the tree go with it, as in loadaudit
    } else {
        if (tree) ts_tree_delete(tree);
        ts_parser_delete(parser);
    }
}

static void read_file(Worker *worker, int folder, const char *name, const char *path) {
    int descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return;
    struct stat info;
    if (fstat(descriptor, &info) != 0 || !S_ISREG(info.st_mode)) { close(descriptor); return; }
    size_t size = (size_t)info.st_size;
    if (size + 1 > worker->capacity) {
        worker->capacity = size + 1 > 2 * worker->capacity ? size + 1 : 2 * worker->capacity;
        worker->buffer = realloc(worker->buffer, worker->capacity);
    }
    size_t done = 0;
    for (;;) {
        ssize_t got = read(descriptor, worker->buffer + done, worker->capacity - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
        if (done == size) break;  // read whole at fstat's size: no second read to hear the end
        if (done == worker->capacity) {
            worker->capacity *= 2;
            worker->buffer = realloc(worker->buffer, worker->capacity);
        }
    }
    close(descriptor);
    worker->files_read++;
    worker->bytes_read += done;
    const char *relative = path + root_length;
    while (*relative == '/') relative++;
    if (is_wanted(relative)) parse(worker, worker->buffer, done);
}

static void *work(void *argument) {
    Worker *worker = argument;
    char *path;
    while ((path = pop_folder())) {
        int folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *entries = folder >= 0 ? fdopendir(folder) : NULL;
        if (!entries) {
            if (folder >= 0) close(folder);
            free(path);
            continue;
        }
        size_t path_length = strlen(path);
        struct dirent *entry;
        while ((entry = readdir(entries))) {
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
            unsigned char type = entry->d_type;
            if (type == DT_UNKNOWN) {
                struct stat info;
                if (fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
                type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISREG(info.st_mode) ? DT_REG : DT_UNKNOWN;
            }
            if (type != DT_DIR && !(type == DT_REG && is_swift(name))) continue;
            if (type == DT_DIR && skipped_folder(name)) continue;
            size_t name_length = strlen(name);
            char *child = malloc(path_length + name_length + 2);
            memcpy(child, path, path_length);
            child[path_length] = '/';
            memcpy(child + path_length + 1, name, name_length + 1);
            if (type == DT_DIR) {
                push_folder(child);
            } else {
                read_file(worker, folder, name, child);
                free(child);
            }
        }
        closedir(entries);
        free(path);
    }
    return NULL;
}

int main(int argc, char **argv) {
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    int next = 1;
    if (next + 1 < argc && strcmp(argv[next], "--jobs") == 0) {
        jobs = strtol(argv[next + 1], NULL, 10);
        next += 2;
    }
    if (argc - next != 2 || jobs < 1) {
        fprintf(stderr, "usage: parse-floor [--jobs N] ROOT LIST\n");
        return 2;
    }
    const char *root = argv[next], *list = argv[next + 1];
    struct stat info;
    if (stat(root, &info) != 0 || !S_ISDIR(info.st_mode)) {
        fprintf(stderr, "parse-floor: %s: not a folder\n", root);
        return 2;
    }
    if (load_list(list) != 0) {
        fprintf(stderr, "parse-floor: %s: %s\n", list, strerror(errno));
        return 2;
    }
    loadaudit_arena_install();
    root_length = strlen(root);
    busy_workers = (int)jobs;
    push_folder(strdup(root));
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    Worker *workers = calloc((size_t)jobs, sizeof *workers);
    for (long i = 1; i < jobs; i++) pthread_create(&threads[i], NULL, work, &workers[i]);
    work(&workers[0]);
    for (long i = 1; i < jobs; i++) pthread_join(threads[i], NULL);
    Worker total = {0};
    for (long i = 0; i < jobs; i++) {
        total.files_read += workers[i].files_read;
        total.bytes_read += workers[i].bytes_read;
        total.files_parsed += workers[i].files_parsed;
        total.bytes_parsed += workers[i].bytes_parsed;
        total.nodes += workers[i].nodes;
    }
    printf("%zu files read (%zu bytes), %zu parsed (%zu bytes, %zu top-level nodes), %ld threads\n",
           total.files_read, total.bytes_read, total.files_parsed, total.bytes_parsed, total.nodes, jobs);
    return 0;
}
