import Lib

public func makeThing() -> Thing { Thing() }
