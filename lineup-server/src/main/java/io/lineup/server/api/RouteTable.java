package io.lineup.server.api;

import static io.lineup.server.auth.Scope.CONSUME;
import static io.lineup.server.auth.Scope.MANAGE;
import static io.lineup.server.auth.Scope.PUBLISH;
import static io.lineup.server.auth.Scope.READ;

import io.lineup.server.auth.Access;
import java.util.List;

/** Every route of the server, with who may call it. docs/server.md and /openapi.json follow it. */
public final class RouteTable {
  /** The publish route, which the server also serves on its core lane. */
  public static final String PUBLISH_PATH = "/v1/queues/{ns}/{queue}/jobs";

  /** The task submit route, which the server also serves on its core lane. */
  public static final String SUBMIT_PATH = "/v1/endpoints/{ns}/{endpoint}/tasks";

  private RouteTable() {}

  /** The routes, bound to their handlers. */
  public static List<Route> routes(ApiContext api) {
    JobHandlers jobs = new JobHandlers(api);
    LeaseHandlers leases = new LeaseHandlers(api);
    QueueHandlers queues = new QueueHandlers(api);
    DeadLetterHandlers dead = new DeadLetterHandlers(api, queues);
    AdminHandlers admin = new AdminHandlers(api);
    SystemHandlers system = new SystemHandlers(api);
    DispatchHandlers dispatch = new DispatchHandlers(api);
    EndpointControlHandlers endpointControls = new EndpointControlHandlers(api);
    EndpointTaskListHandlers taskLists = new EndpointTaskListHandlers(api);
    String endpoint = "/v1/endpoints/{ns}/{endpoint}";
    String task = endpoint + "/tasks/{id}";
    RoomHandlers rooms = new RoomHandlers(api);
    ArchiveHandlers archive = new ArchiveHandlers(api);
    String room = "/v1/rooms/{ns}/{room}";
    String ticket = room + "/tickets/{ticket}";
    String queue = "/v1/queues/{ns}/{queue}";
    String job = queue + "/jobs/{id}";
    DashboardHandlers dashboard = new DashboardHandlers(api, queues);
    DashboardAssets ui = new DashboardAssets();
    RunningHandlers running = new RunningHandlers(api, queues);
    ScheduleHandlers schedules = new ScheduleHandlers(api);
    String schedule = queue + "/schedules/{name}";
    String endpointSchedule = endpoint + "/schedules/{name}";
    KeyHandlers keys = new KeyHandlers(api);
    JobListHandlers jobLists = new JobListHandlers(api, queues);
    String key = queue + "/keys/{key}";
    return List.of(
        Route.get("/health", Access.open(), system::health),
        Route.get("/ready", Access.open(), system::ready),
        Route.get("/metrics", Access.metrics(), system::metrics),
        Route.get("/openapi.json", Access.open(), system::openApi),
        Route.get("/ui", Access.open(), ui::page),
        Route.get("/ui/{file}", Access.open(), ui::file),
        Route.get("/ui/vendor/{file}", Access.open(), ui::vendor),
        Route.get("/favicon.ico", Access.open(), ui::icon),
        Route.head("/ui", Access.open(), ui::page),
        Route.head("/ui/{file}", Access.open(), ui::file),
        Route.head("/ui/vendor/{file}", Access.open(), ui::vendor),
        Route.head("/favicon.ico", Access.open(), ui::icon),
        Route.get("/v1/me", Access.anyToken(), dashboard::me),
        Route.get("/v1/overview", Access.anyToken(), dashboard::overview),
        Route.post(PUBLISH_PATH, Access.namespace(PUBLISH), jobs::publish)
            .onLane(jobs::publishOnLane),
        Route.get(job, Access.namespace(PUBLISH, CONSUME, MANAGE, READ), jobs::get),
        Route.delete(job, Access.namespace(PUBLISH, MANAGE), jobs::cancel),
        Route.post(queue + "/leases", Access.namespace(CONSUME), leases::lease),
        Route.post(job + "/ack", Access.namespace(CONSUME), leases::ack),
        Route.post(queue + "/acks", Access.namespace(CONSUME), leases::ackAll),
        Route.post(job + "/nack", Access.namespace(CONSUME), leases::nack),
        Route.post(job + "/extend", Access.namespace(CONSUME), leases::extend),
        Route.get("/v1/queues", Access.anyToken(), queues::list),
        Route.get(queue, Access.namespace(PUBLISH, CONSUME, MANAGE, READ), queues::get),
        Route.get(
            queue + "/history",
            Access.namespace(PUBLISH, CONSUME, MANAGE, READ),
            dashboard::history),
        Route.get(
            queue + "/line", Access.namespace(PUBLISH, CONSUME, MANAGE, READ), dashboard::line),
        Route.get(
            queue + "/fairness",
            Access.namespace(PUBLISH, CONSUME, MANAGE, READ),
            dashboard::fairness),
        // Running now and consumers (issue 55).
        Route.get(
            queue + "/running", Access.namespace(PUBLISH, CONSUME, MANAGE, READ), running::running),
        Route.get(
            queue + "/consumers",
            Access.namespace(PUBLISH, CONSUME, MANAGE, READ),
            running::consumers),
        Route.get(
            job + "/events",
            Access.namespace(PUBLISH, CONSUME, MANAGE, READ),
            dashboard::jobEvents),
        Route.patch(queue, Access.namespace(MANAGE), queues::patch),
        Route.get(
            queue + "/schedules",
            Access.namespace(PUBLISH, CONSUME, MANAGE, READ),
            schedules::list),
        Route.put(schedule, Access.namespace(PUBLISH), schedules::put),
        Route.get(schedule, Access.namespace(PUBLISH, CONSUME, MANAGE, READ), schedules::get),
        Route.delete(schedule, Access.namespace(PUBLISH, MANAGE), schedules::delete),
        Route.post(schedule + "/pause", Access.namespace(PUBLISH, MANAGE), schedules::pause),
        Route.post(schedule + "/resume", Access.namespace(PUBLISH, MANAGE), schedules::resume),
        Route.get(
            schedule + "/next", Access.namespace(PUBLISH, CONSUME, MANAGE, READ), schedules::next),
        Route.get(queue + "/keys", Access.namespace(PUBLISH, CONSUME, MANAGE, READ), keys::top),
        Route.get(key, Access.namespace(PUBLISH, CONSUME, MANAGE, READ), keys::get),
        Route.put(key, Access.namespace(MANAGE), keys::put),
        Route.post(key + "/pause", Access.namespace(MANAGE), keys::pause),
        Route.post(key + "/resume", Access.namespace(MANAGE), keys::resume),
        Route.delete(key + "/jobs", Access.namespace(MANAGE), keys::deleteWaiting),
        // ---- job lists by state and actions on jobs (docs/job-lists.md) ----
        Route.get(queue + "/jobs", Access.namespace(MANAGE, READ), jobLists::list),
        Route.post(queue + "/jobs/actions", Access.namespace(PUBLISH, MANAGE), jobLists::act),
        Route.post(job + "/run-now", Access.namespace(MANAGE), jobLists::runNow),
        Route.post(job + "/respawn", Access.namespace(MANAGE), jobLists::respawn),
        // ---- end of job lists ----
        Route.get(queue + "/dead", Access.namespace(MANAGE, READ), dead::list),
        Route.post(queue + "/dead/respawn", Access.namespace(MANAGE), dead::respawn),
        Route.delete(queue + "/dead", Access.namespace(MANAGE), dead::purge),
        Route.put(endpoint, Access.namespace(MANAGE), dispatch::putEndpoint),
        Route.get(endpoint, Access.namespace(MANAGE, READ), dispatch::getEndpoint),
        Route.delete(endpoint, Access.namespace(MANAGE), dispatch::deleteEndpoint),
        Route.get("/v1/endpoints/{ns}", Access.namespace(MANAGE, READ), dispatch::listEndpoints),
        // Endpoint controls (issue 55).
        Route.post(endpoint + "/pause", Access.namespace(MANAGE), endpointControls::pause),
        Route.post(endpoint + "/resume", Access.namespace(MANAGE), endpointControls::resume),
        Route.post(
            endpoint + "/circuit/reset", Access.namespace(MANAGE), endpointControls::resetCircuit),
        Route.get(SUBMIT_PATH, Access.namespace(MANAGE, READ), taskLists::list),
        Route.post(SUBMIT_PATH, Access.namespace(PUBLISH), dispatch::submit)
            .onLane(dispatch::submitOnLane),
        Route.get(task, Access.namespace(PUBLISH, MANAGE, READ), dispatch::getTask),
        Route.get(endpoint + "/dead", Access.namespace(MANAGE, READ), dispatch::deadTasks),
        Route.delete(task, Access.namespace(PUBLISH, MANAGE), dispatch::cancelTask),
        Route.get(
            endpoint + "/schedules",
            Access.namespace(PUBLISH, MANAGE, READ),
            schedules::listForEndpoint),
        Route.put(endpointSchedule, Access.namespace(PUBLISH), schedules::putForEndpoint),
        Route.get(
            endpointSchedule, Access.namespace(PUBLISH, MANAGE, READ), schedules::getForEndpoint),
        Route.delete(
            endpointSchedule, Access.namespace(PUBLISH, MANAGE), schedules::deleteForEndpoint),
        Route.post(
            endpointSchedule + "/pause",
            Access.namespace(PUBLISH, MANAGE),
            schedules::pauseForEndpoint),
        Route.post(
            endpointSchedule + "/resume",
            Access.namespace(PUBLISH, MANAGE),
            schedules::resumeForEndpoint),
        Route.get(
            endpointSchedule + "/next",
            Access.namespace(PUBLISH, MANAGE, READ),
            schedules::nextForEndpoint),
        Route.put("/v1/callbacks/{ns}", Access.namespace(MANAGE), dispatch::putCallbacks),
        Route.get("/v1/callbacks/{ns}", Access.namespace(MANAGE), dispatch::getCallbacks),
        Route.put(room, Access.namespace(MANAGE), rooms::put),
        Route.get(room, Access.namespace(MANAGE, READ), rooms::get),
        Route.get("/v1/rooms/{ns}", Access.namespace(MANAGE, READ), dashboard::rooms),
        Route.delete(room, Access.namespace(MANAGE), rooms::delete),
        // Room controls (issue 55).
        Route.post(room + "/suspend", Access.namespace(MANAGE), rooms::suspend),
        Route.post(room + "/resume", Access.namespace(MANAGE), rooms::resume),
        Route.get(room + "/tickets", Access.namespace(MANAGE, READ), rooms::waiting),
        Route.post(room + "/tickets", Access.namespace(PUBLISH), rooms::join),
        Route.get(ticket, Access.namespace(PUBLISH, MANAGE), rooms::poll),
        Route.delete(ticket, Access.namespace(PUBLISH, MANAGE), rooms::leave),
        Route.post(ticket + "/renew", Access.namespace(PUBLISH), rooms::renew),
        Route.get(ticket + "/events", Access.namespace(PUBLISH, MANAGE), rooms::events),
        Route.get(room + "/jwks.json", Access.open(), rooms::jwks),
        Route.post(room + "/keys/rotate", Access.namespace(MANAGE), rooms::rotate),
        Route.delete(room + "/passes/{jti}", Access.namespace(MANAGE), rooms::revoke),
        Route.post(room + "/grants", Access.namespace(MANAGE), rooms::createGrant),
        Route.get(room + "/grants", Access.namespace(MANAGE), rooms::grants),
        Route.post("/v1/passes/verify", Access.anyToken(), rooms::verify),
        Route.get("/v1/archive/{ns}", Access.namespace(MANAGE), archive::list),
        Route.post("/v1/admin/namespaces", Access.admin(), admin::createNamespace),
        Route.get("/v1/admin/namespaces", Access.admin(), admin::listNamespaces),
        Route.delete("/v1/admin/namespaces/{ns}", Access.admin(), admin::deleteNamespace),
        Route.post("/v1/admin/tokens", Access.admin(), admin::createToken),
        Route.get("/v1/admin/tokens", Access.admin(), admin::listTokens),
        Route.delete("/v1/admin/tokens/{id}", Access.admin(), admin::revokeToken));
  }
}
