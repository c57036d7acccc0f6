// The test block of Docs/MigratingFromFactory.md: the guide's app types, and its "After" block
// (the wiring and the view model the test uses), compiled from the guide itself.
// check-samples: with MigratingFromFactory.swift
// check-samples: with block 5
import DependencyStore
import Testing
