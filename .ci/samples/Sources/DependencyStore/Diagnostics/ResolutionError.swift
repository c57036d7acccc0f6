protocol Analytics { func track(_ event: String) }
