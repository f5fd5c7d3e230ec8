"""The application level: programs of streams, launches, copies and collectives over one GPU or many, run
as a simpy discrete-event model that asks the engine to time each kernel (see ``program``, ``runtime``)."""
