//! Game records: `.blksgf` (SGF dialect of Blokus programs) and JSON.
