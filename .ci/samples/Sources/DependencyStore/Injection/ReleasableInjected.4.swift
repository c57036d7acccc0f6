@ReleasableInjected var session: Session
