"""The workshop: its command (`scripts/workshop`), its plan, its "write the test" checker and its rehearsal."""
