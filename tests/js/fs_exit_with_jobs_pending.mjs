// timeout: 30
//
// hostloop.exit() while thousands of hostloop:fs reads are still queued or
// running on the pool: the process ends at once with its code, and nothing
// the pending jobs hold is reported as leaked under ASan. (Their memory, and
// small files' read buffers, come from base::SlabAllocator, whose chunks
// LeakSanitizer has to scan as roots: without that, the EventLoop and cancel
// flags that only pending jobs point to were reported at exit.)
// Expected: fs_exit_with_jobs_pending.stdout, and exit code 0.

import { readFile } from 'hostloop:fs';

const self = new URL(import.meta.url).pathname;
for (let i = 0; i < 2000; i++) readFile(self).then(() => console.log('a read settled after exit()'));
console.log('exit with 2000 reads pending');
hostloop.exit(0);
