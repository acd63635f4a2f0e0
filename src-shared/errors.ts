/** Errors cross every transport as values: the UI shows `message` and may use `details`. */
export interface RpcError {
  code: string
  message: string
  details?: unknown
}

export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError }

export class RpcFailure extends Error {
  constructor(readonly error: RpcError) {
    super(error.message)
    this.name = 'RpcFailure'
  }
}
