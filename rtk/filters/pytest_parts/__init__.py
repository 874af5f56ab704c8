"""Parts of the pytest filter: output shapes, failure blocks, test ids, counts."""
