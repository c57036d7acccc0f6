func log(_ event: ResolveEvent) {}
